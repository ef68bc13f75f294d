// Drop zones: file inputs, folder inputs and drag-and-drop (files, folders, zips) → a list of
// { path, file } per zone. Files stay File objects; the page never reads them (the worker does).

import { h, formatBytes, plural } from './util.js';

/** Reads a FileSystemFileEntry. */
function entryFile(entry) {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Reads every entry of a directory (readEntries returns batches until an empty one). */
async function readAll(dirEntry) {
  const reader = dirEntry.createReader();
  const out = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) break;
    out.push(...batch);
  }
  out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

async function walk(entry, out) {
  if (entry.isFile) {
    const file = await entryFile(entry);
    out.push({ path: entry.fullPath.replace(/^\/+/, '') || file.name, file });
  } else if (entry.isDirectory) {
    for (const child of await readAll(entry)) await walk(child, out);
  }
}

/**
 * Collects the files of a drop. Must be called synchronously inside the `drop` handler: the
 * DataTransfer items are only readable during the event. Resolves to [{path, file}].
 */
export function collectDrop(dataTransfer) {
  const grabbed = [];
  const items = dataTransfer?.items ? Array.from(dataTransfer.items) : [];
  for (const item of items) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    grabbed.push({ entry, file: item.getAsFile() });
  }
  if (!grabbed.length && dataTransfer?.files) {
    for (const file of Array.from(dataTransfer.files)) grabbed.push({ entry: null, file });
  }
  return (async () => {
    const out = [];
    for (const g of grabbed) {
      if (g.entry && g.entry.isDirectory) {
        await walk(g.entry, out);
      } else if (g.file) {
        out.push({ path: g.file.name, file: g.file });
      } else if (g.entry && g.entry.isFile) {
        await walk(g.entry, out);
      }
    }
    return out;
  })();
}

/** Files chosen through an <input type=file> (folders keep their relative paths). */
export function collectInput(input) {
  return Array.from(input.files ?? []).map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

const ROLE_NAMES = { gt: 'ground truth', pred: 'predictions' };

export class Zone {
  /**
   * @param {HTMLElement} root   the .zone section
   * @param {'gt'|'pred'} role
   * @param {{onChange: () => void, onError: (msg: string) => void}} hooks
   */
  constructor(root, role, hooks) {
    this.root = root;
    this.role = role;
    this.hooks = hooks;
    this.files = [];
    this.fromExample = false;
    this.notes = new Map();
    this.list = root.querySelector('.zone-files');
    this.title = root.querySelector('.zone-title').textContent;
    this.bind();
    this.render();
  }

  bind() {
    for (const input of this.root.querySelectorAll('input[type=file]')) {
      input.addEventListener('change', () => {
        const picked = collectInput(input);
        input.value = ''; // choosing the same file again must fire `change` again
        if (picked.length) this.add(picked);
      });
      // Enter opens the chooser as Space does (the input is focused through its label's button look).
      input.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
        if (e.key !== 'Enter') return;
        e.preventDefault();
        input.click();
      });
    }
    let depth = 0;
    const hasFiles = (e) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    this.root.addEventListener('dragenter', (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      this.root.classList.add('is-dragover');
    });
    this.root.addEventListener('dragover', (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      this.root.classList.add('is-dragover');
    });
    this.root.addEventListener('dragleave', () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) this.root.classList.remove('is-dragover');
    });
    this.root.addEventListener('drop', (e) => {
      e.preventDefault();
      e.stopPropagation();
      depth = 0;
      this.root.classList.remove('is-dragover');
      collectDrop(e.dataTransfer).then(
        (picked) => {
          if (picked.length) this.add(picked);
          else this.hooks.onError?.('Nothing to add: the drop held no files.');
        },
        (err) => this.hooks.onError?.(`Could not read the dropped files: ${err?.message ?? err}`),
      );
    });
  }

  /** Adds files; a file with the same path as one already listed replaces it. */
  add(picked, { silent = false } = {}) {
    // Files the user adds after an example replace the example's files (never a mix of the two).
    if (this.fromExample) this.files = [];
    this.fromExample = false;
    for (const p of picked) {
      const i = this.files.findIndex((f) => f.path === p.path);
      if (i >= 0) this.files[i] = p;
      else this.files.push(p);
    }
    this.render();
    if (!silent) this.hooks.onChange?.();
  }

  /** Replaces the zone's files; `example`: they are an example's, which the next added files replace. */
  set(picked, { example = false } = {}) {
    this.files = [];
    this.add(picked, { silent: true });
    this.fromExample = example;
  }

  remove(index) {
    this.files.splice(index, 1);
    this.render();
    this.hooks.onChange?.();
    // keep the keyboard user in the list
    const buttons = this.list.querySelectorAll('.file-remove');
    const next = buttons[Math.min(index, buttons.length - 1)] ?? this.root.querySelector('input[type=file]');
    next?.focus();
  }

  clear() {
    this.files = [];
    this.render();
    this.hooks.onChange?.();
    this.root.querySelector('input[type=file]')?.focus();
  }

  setExpect(text) {
    const p = this.root.querySelector('.zone-expect');
    p.textContent = text ?? '';
    p.hidden = !text;
  }

  /** @param {Map<string, {notes: string[], errors: number, warnings: number}>} notes by path */
  setNotes(notes) {
    this.notes = notes ?? new Map();
    this.render();
  }

  render() {
    const list = this.list;
    list.replaceChildren();
    this.root.classList.toggle('has-files', this.files.length > 0);
    if (!this.files.length) return;
    const total = this.files.reduce((a, f) => a + f.file.size, 0);
    const rows = this.files.map((f, i) => {
      const note = this.notes.get(f.path);
      const badges = [];
      if (note?.errors) badges.push(h('a', { class: 'badge badge-error', href: '#diagnostics' }, plural(note.errors, 'error')));
      if (note?.warnings) badges.push(h('a', { class: 'badge badge-warning', href: '#diagnostics' }, plural(note.warnings, 'warning')));
      return h('li', { class: 'file' },
        h('span', { class: 'file-main' },
          h('span', { class: 'file-path', title: f.path }, f.path),
          h('span', { class: 'file-meta' },
            h('span', { class: 'file-size' }, formatBytes(f.file.size)),
            h('span', { class: 'file-role' }, `role: ${ROLE_NAMES[this.role]} (this zone)`),
            badges),
          (note?.notes ?? []).map((n) => h('span', { class: 'file-note' }, n))),
        h('button', {
          type: 'button', class: 'icon-btn file-remove', 'aria-label': `Remove ${f.path}`, title: 'Remove',
          onclick: () => this.remove(i),
        }, '×'));
    });
    list.append(
      h('div', { class: 'file-summary' },
        h('span', {}, `${plural(this.files.length, 'file')} · ${formatBytes(total)}`),
        h('button', { type: 'button', class: 'link-btn', onclick: () => this.clear(), 'aria-label': `Clear all ${this.title.toLowerCase()} files` }, 'Clear')),
      h('ul', { class: 'file-list', 'aria-label': `${this.title} files` }, rows),
    );
  }
}
