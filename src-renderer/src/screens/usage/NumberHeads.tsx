/** Column heads of figures: aligned on the right, over their figures. */
export function NumberHeads({ names }: { names: string[] }) {
  return names.map((name) => (
    <th key={name} scope="col" className="number">
      {name}
    </th>
  ));
}
