// What the results in scope this export leaves out, and why, as core words it for every front end ("11 videos
// not picked are not exported", issue 31): said before Export, so a selection never drops results silently.

export function LeftOut({ sentences }: { sentences: readonly string[] }) {
  if (sentences.length === 0) return null;
  return (
    <ul className="export-left-out" aria-label="Not exported">
      {sentences.map((sentence) => (
        <li key={sentence}>{sentence}.</li>
      ))}
    </ul>
  );
}
