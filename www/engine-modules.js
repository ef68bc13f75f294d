// @ts-check
// The page's split engine (scripts/build-wasm): the wasm is built as a few modules, each with the protocols of one
// group, and the worker runs the module of the protocol asked for (www/engine.js), so a page loads only that
// protocol's code. Which module holds which protocol: www/pkg/modules.json, or DROPSCORE_MODULES (dist/ and the
// single-file build, scripts/build-dist.mjs).

/** @typedef {import('./api').SplitEngine} SplitEngine */

/**
 * The split engine's description (which module holds which protocol, every protocol's description), or null when
 * there is none (a build without modules: the whole engine serves every protocol).
 * @returns {Promise<SplitEngine | null>}
 */
export async function loadSplit() {
  let m = globalThis.DROPSCORE_MODULES ?? null;
  if (!m) {
    try {
      const res = await fetch(new URL('./pkg/modules.json', import.meta.url));
      m = res.ok ? await res.json() : null;
    } catch {
      m = null;
    }
  }
  return m && Array.isArray(m.protocols) ? m : null;
}

/**
 * The module that holds `protocol`; '' (the whole engine) without a split engine or for a protocol none holds.
 * @param {SplitEngine | null} split @param {string | undefined} protocol
 */
export function moduleFor(split, protocol) {
  return split?.protocols.find((p) => p.id === protocol)?.module ?? '';
}

/**
 * The protocol a request is about: its `protocol`, or the one a competition config names (its JSON form; a config
 * that cannot be read gets its error from the whole engine).
 * @param {any} message
 * @returns {string | undefined}
 */
export function protocolOf(message) {
  if (typeof message.protocol === 'string') return message.protocol;
  if (message.type !== 'config') return undefined;
  try {
    const p = JSON.parse(String(message.text ?? '')).protocol;
    return typeof p === 'string' ? p : undefined;
  } catch {
    return undefined;
  }
}
