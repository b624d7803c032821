import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiDownloadCsv, errorMessage } from '../api/client';

/**
 * "Download CSV": the list or report `path` with the filters on screen (`params`), every page of
 * it, as the server writes it (crates/server/src/api/export.rs), saved as the file the server
 * names. A refusal shows next to the button.
 */
export function DownloadCsvButton({ path, params, label }: { path: string; params: Record<string, unknown>; label?: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const file = await apiDownloadCsv(path, params);
      if ('sessionEnded' in file) return;
      saveFile(file.text, file.fileName);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="download-csv">
      <button type="button" className="btn btn-sm" disabled={busy} onClick={() => void download()} data-testid="download-csv">
        {busy ? t('preparing') : (label ?? t('downloadCsv'))}
      </button>
      {error && (
        <span className="field-error" role="alert" data-testid="download-csv-error">
          {error}
        </span>
      )}
    </span>
  );
}

/** Hands `text` to the browser as a file download named `fileName`. */
function saveFile(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // After the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
