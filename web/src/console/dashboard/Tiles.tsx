import type { ReactNode } from 'react';

export interface Tile {
  /** The tile's test id is `${testIdPrefix}-${id}`. */
  id: string;
  label: string;
  value: ReactNode;
}

/** The dashboard's row of figures (dashboard.css's `dash-tiles`): a label over each value. */
export function Tiles({ tiles, testIdPrefix }: { tiles: readonly Tile[]; testIdPrefix: string }) {
  return (
    <dl className="dash-tiles">
      {tiles.map((tile) => (
        <div key={tile.id} className="dash-tile" data-testid={`${testIdPrefix}-${tile.id}`}>
          <dt>{tile.label}</dt>
          <dd>{tile.value}</dd>
        </div>
      ))}
    </dl>
  );
}
