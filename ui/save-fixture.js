// "Save as fixture": asks for a file name, shows the YAML the mock would write for this
// request (GET /__admin/requests/{id}/fixture), and writes it with a POST of the same.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { html } from './html.js';

function suggestedName(entry) {
  const base = (entry.fixture ?? entry.model ?? 'request').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `${base || 'request'}-${entry.id.slice(-6)}.yaml`;
}

export function SaveFixture({ entry, onClose }) {
  const [file, setFile] = useState(suggestedName(entry));
  const [yaml, setYaml] = useState('');
  const [message, setMessage] = useState('');
  const [saved, setSaved] = useState(false);
  const path = `/requests/${encodeURIComponent(entry.id)}/fixture`;
  useEffect(() => {
    api(path)
      .then(setYaml)
      .catch((error) => setMessage(error.status === 404 ? `This mock cannot turn this request into a fixture (${error.message})` : error.message));
  }, [entry.id]);
  const save = async (event) => {
    event.preventDefault();
    try {
      const answer = await api(path, { method: 'POST', body: { file } });
      setSaved(true);
      setMessage(`Written${answer?.file ? ` to ${answer.file}` : ''}; the next reload serves it.`);
    } catch (error) {
      setMessage(error.status === 409 ? `${file} already exists; choose another name.` : error.message);
    }
  };
  return html`<div class="overlay" onClick=${(event) => event.target === event.currentTarget && onClose()}>
    <form class="dialog" onSubmit=${save}>
      <h3>Save as fixture</h3>
      <label>File name, in the first fixtures directory
        <input name="file" value=${file} onInput=${(event) => setFile(event.currentTarget.value)} autofocus />
      </label>
      <pre class="yaml">${yaml || (message ? '' : 'Loading…')}</pre>
      ${message ? html`<p class=${saved ? 'ok' : 'problem'}>${message}</p>` : ''}
      <div class="actions">
        <button type="button" class="quiet" onClick=${onClose}>${saved ? 'Close' : 'Cancel'}</button>
        <button type="submit" disabled=${!yaml || saved}>Write ${file}</button>
      </div>
    </form>
  </div>`;
}
