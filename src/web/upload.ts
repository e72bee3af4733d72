import { api, el, errorBox, main } from './dom.js';

interface UploadAnswer {
  hash: string;
  url: string;
  stored: boolean;
  new: boolean;
}

const TOKEN_KEY = 'iolens-token';

/** Sends one file's bytes to POST /api/reports; the answer names the job's page. */
export async function upload(file: File): Promise<UploadAnswer> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return api<UploadAnswer>(`/api/reports?name=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: file,
  });
}

/** The upload page: drop logs (or pick them); one log opens its job page, several list their links. */
export function uploadPage(): void {
  const m = main();
  const input = el('input', { type: 'file', id: 'file', multiple: true, 'aria-label': 'Darshan logs' });
  const zone = el('div', { id: 'drop', class: 'drop', tabindex: 0 }, el('p', {}, 'Drop Darshan logs here, or '), el('label', { class: 'button', for: 'file' }, 'choose files'), input);
  const token = el('input', { type: 'password', id: 'token', placeholder: 'token (if the service needs one)', autocomplete: 'off' });
  token.value = sessionStorage.getItem(TOKEN_KEY) ?? '';
  token.addEventListener('change', () => sessionStorage.setItem(TOKEN_KEY, token.value));
  const results = el('ul', { id: 'results', class: 'results' });
  m.append(el('h1', {}, 'Diagnose a job'), el('p', {}, 'The log is diagnosed on the server (the same analysis as iolens report): findings, costs, recommendations and plots.'), zone, el('p', {}, token), results);
  const handle = async (files: File[]) => {
    if (!files.length) return;
    zone.classList.add('busy');
    const done: { file: File; answer?: UploadAnswer; error?: string }[] = [];
    await Promise.all(
      files.map(async (file) => {
        try {
          done.push({ file, answer: await upload(file) });
        } catch (err) {
          done.push({ file, error: (err as Error).message });
        }
      }),
    );
    zone.classList.remove('busy');
    if (done.length === 1 && done[0].answer) {
      location.assign(done[0].answer.url);
      return;
    }
    for (const d of done) {
      results.append(d.answer ? el('li', {}, el('a', { href: d.answer.url }, d.file.name), d.answer.stored ? (d.answer.new ? ' (stored)' : ' (already in the store)') : '') : el('li', {}, d.file.name, ': ', errorBox(d.error!)));
    }
  };
  input.addEventListener('change', () => void handle([...(input.files ?? [])]));
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    void handle([...(e.dataTransfer?.files ?? [])]);
  });
}
