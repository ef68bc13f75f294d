// @ts-check
// Whether aij2022's Russian dictionary (www/assets/ru-lemmas.bin) is there yet: scripts/start serves the page
// before it builds the asset, in the background. On the aij2022 page a note says what works meanwhile and tells
// when the text tasks become exact (polling the asset's URL every 15 s while the page shows aij2022).

import { h } from './util.js';

// A HEAD request with its own query, so it is never mistaken for (or cached as) the worker's download of the asset.
const ASSET = new URL('./assets/ru-lemmas.bin?exists', import.meta.url);
const POLL_MS = 15000;

/** @type {{timer: ReturnType<typeof setTimeout> | null, note: HTMLElement | null, missing: boolean}} */
const st = { timer: null, note: null, missing: false };

/** @returns {Promise<boolean>} whether the asset is served */
async function present() {
  try {
    const res = await fetch(ASSET, { method: 'HEAD', cache: 'no-store' });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Shows (for aij2022) or removes (any other protocol) the dictionary note after `anchor`.
 * @param {HTMLElement} anchor @param {string} protocol
 */
export function showLemmaStatus(anchor, protocol) {
  if (st.timer) clearTimeout(st.timer);
  st.timer = null;
  if (protocol !== 'aij2022') {
    st.note?.remove();
    st.note = null;
    return;
  }
  if (!st.note) {
    st.note = h('p', { class: 'notice notice-info lemma-status', role: 'status', hidden: true });
    anchor.after(st.note);
  }
  const note = st.note;
  const check = async () => {
    const ok = await present();
    if (st.note !== note) return;
    if (!ok) {
      st.missing = true;
      note.replaceChildren(h('strong', {}, 'The Russian dictionary is still being built'),
        ' (scripts/start builds it after serving the page; a few minutes, log: target/lemma-build.log). ',
        'Meanwhile ImageGeneration (FID) and every other protocol are exact; the text tasks score without lemmas ',
        'and say “not bit-exact”. This note changes when the dictionary is ready.');
      note.hidden = false;
      st.timer = setTimeout(check, POLL_MS);
    } else if (st.missing) {
      note.replaceChildren(h('strong', {}, 'The Russian dictionary is ready:'),
        ' aij2022’s text tasks are available and exact. Score them again if you scored before.');
      note.hidden = false;
    } else {
      note.hidden = true;
    }
  };
  check();
}
