// @ts-check
// Whether the current protocol's assets (src/protocols/views.rs `Asset`, e.g. a dictionary) are served yet:
// scripts/start serves the page before it builds them, in the background. For each asset the server lacks, a
// note after the protocol's summary says what works meanwhile (the asset's `missing` text), and tells when it
// appears (`ready`), polling the asset's URL every 15 s while the page shows that protocol.

import { h } from './util.js';

const POLL_MS = 15000;

/** @type {{timers: ReturnType<typeof setTimeout>[], notes: HTMLElement[], missing: Set<string>}} */
const st = { timers: [], notes: [], missing: new Set() };

/**
 * Whether the asset is served: a HEAD request with its own query, so it is never mistaken for (or cached as) the
 * worker's download of the asset.
 * @param {import('./api').Asset} asset @returns {Promise<boolean>}
 */
async function present(asset) {
  try {
    const res = await fetch(new URL(`./assets/${asset.file}?exists`, import.meta.url), { method: 'HEAD', cache: 'no-store' });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Shows the notes of protocol `p`'s assets after `anchor` (none for a protocol without assets), removing those of
 * the protocol shown before.
 * @param {HTMLElement} anchor @param {import('./api').ProtocolInfo} p
 */
export function showAssetStatus(anchor, p) {
  for (const t of st.timers) clearTimeout(t);
  st.timers = [];
  for (const n of st.notes) n.remove();
  st.notes = [];
  let after = anchor;
  for (const asset of p.assets ?? []) {
    const note = h('p', { class: ['notice', 'notice-info', 'asset-status', `${asset.name}-status`], role: 'status', hidden: true });
    after.after(note);
    after = note;
    st.notes.push(note);
    watch(asset, note);
  }
}

/** @param {import('./api').Asset} asset @param {HTMLElement} note */
function watch(asset, note) {
  const check = async () => {
    const ok = await present(asset);
    if (!st.notes.includes(note)) return;
    if (!ok) {
      st.missing.add(asset.name);
      note.replaceChildren(h('strong', {}, asset.missing[0]), asset.missing[1]);
      note.hidden = false;
      st.timers.push(setTimeout(check, POLL_MS));
    } else if (st.missing.has(asset.name)) {
      note.replaceChildren(h('strong', {}, asset.ready[0]), asset.ready[1]);
      note.hidden = false;
    } else {
      note.hidden = true;
    }
  };
  check();
}
