// The casino screen's Tables card: each in-house table on or off, and the image its tile shows
// (the game's own art or an uploaded one).
import { useRef, useState } from 'react';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage } from '../../components/QueryState';
import { EmptyRow } from '../TableParts';
import { setTableActive, setTableImage, uploadTileImage, type CasinoAdmin, type CasinoTable } from './api';
import { OnOff, useAction } from './CasinoParts';

export function TablesCard({ casino }: { casino: CasinoAdmin }) {
  const action = useAction();
  const categoryName = (id: string) => casino.categories.find((c) => c.sport_id === id)?.name ?? id;
  return (
    <PageCard title="Tables" testId="casino-tables">
      <p className="muted small">
        A table switched off leaves the players' lobby and takes no more bets; a round it has open still settles. A tile shows the game's own art or
        an uploaded image: upload one below, then pick it for the tile.
      </p>
      {action.error && <ErrorMessage>{action.error}</ErrorMessage>}
      <div className="table-wrap">
        <table className="data-table stack-on-phone">
          <thead>
            <tr>
              <th scope="col">Table</th>
              <th scope="col">Category</th>
              <th scope="col">On</th>
              <th scope="col">Tile</th>
            </tr>
          </thead>
          <tbody>
            {casino.tables.length === 0 ? (
              <EmptyRow colSpan={4}>No tables.</EmptyRow>
            ) : (
              casino.tables.map((table) => (
                <tr key={table.game_code} data-testid={`casino-table-${table.game_code}`}>
                  <td data-label="Table">
                    {table.title} <span className="muted small">({table.game_code})</span>
                  </td>
                  <td data-label="Category">{categoryName(table.category)}</td>
                  <td data-label="On">
                    <OnOff
                      on={table.is_active}
                      label={`${table.title} on`}
                      disabled={action.busy}
                      onChange={(on) => void action.run(() => setTableActive(table.game_code, on))}
                      testId={`table-active-${table.game_code}`}
                    />
                  </td>
                  <td data-label="Tile">
                    <TileImage table={table} images={casino.images} disabled={action.busy} onPick={(image) => void action.run(() => setTableImage(table.game_code, image))} />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <TileUpload />
    </PageCard>
  );
}

/** Uploads an image under its file's name; it is then offered for every tile. */
function TileUpload() {
  const action = useAction();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const upload = async () => {
    if (!file) {
      action.setError('Choose an image file to upload.');
      return;
    }
    const done = await action.run(async () => {
      const answer = await uploadTileImage(file);
      // The server's message speaks of the logo and favicon; here the image is for a tile.
      return answer.status ? { status: true, message: `Stored as ${answer.data.name}: pick it for a tile.` } : answer;
    });
    if (done) {
      setFile(null);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="casino-form" data-testid="tile-upload">
      <h2>Upload a tile image</h2>
      <Field label="PNG, JPEG, GIF or WebP, at most 512 KiB; stored under its file's name" error={action.error ?? undefined}>
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            action.setError(null);
          }}
          data-testid="tile-upload-file"
        />
      </Field>
      <button type="button" className="btn btn-sm" disabled={action.busy} onClick={() => void upload()} data-testid="tile-upload-submit">
        {action.busy ? 'Uploading…' : 'Upload image'}
      </button>
    </div>
  );
}

function TileImage({ table, images, disabled, onPick }: { table: CasinoTable; images: string[]; disabled: boolean; onPick: (image: string) => void }) {
  return (
    <span className="casino-tile">
      <img className="casino-tile-preview" src={table.image} alt="" />
      <select aria-label={`${table.title} tile image`} value={table.image_name} disabled={disabled} onChange={(e) => onPick(e.target.value)} data-testid={`table-image-${table.game_code}`}>
        <option value="">The game's own art</option>
        {images.map((name) => (
          <option key={name} value={name}>{name}</option>
        ))}
      </select>
    </span>
  );
}
