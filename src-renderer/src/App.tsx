export function App() {
  return (
    <main>
      <h1>Adbatch</h1>
      <p>The desktop app arrives with the desktop issue; the engine runs today from the adbatch command.</p>
    </main>
  );
}
