// @ts-check
// The page side of the worker protocol (www/API.md, typed in www/api.d.ts). The page never touches wasm: it posts
// messages to www/worker.js and gets promises back. Cancel = abort the request's AbortSignal (or `cancel()`): the
// worker is terminated and a fresh one started.

import { noteViews } from './views/index.js';
import { loadSplit, moduleFor, protocolOf } from './engine-modules.js';

/** @typedef {import('./api').ToWorker} ToWorker */
/** @typedef {import('./api').FromWorker} FromWorker */
/** @typedef {import('./api').PageFile} PageFile */
/** @typedef {import('./api').ScoreOptions} ScoreOptions */
/** @typedef {import('./api').ScoreResult} ScoreResult */
/** @typedef {import('./api').ProtocolInfo} ProtocolInfo */
/** @typedef {(fraction: number, phase: string) => void} OnProgress */
/** @typedef {{resolve: (value: any) => void, reject: (reason: Error) => void, onProgress?: OnProgress}} Pending */
/** @typedef {{onProgress?: OnProgress, signal?: AbortSignal}} RequestOptions */
/** @typedef {import('./api').SplitEngine} SplitEngine */

export class CancelledError extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'CancelledError';
  }
}

export class EngineError extends Error {
  /** @param {string} message @param {{fatal?: boolean}} [opts] */
  constructor(message, { fatal = false } = {}) {
    super(message);
    this.name = 'EngineError';
    this.fatal = fatal;
  }
}

export class Engine {
  /** @param {{onFatal?: (message: string) => void}} hooks */
  constructor(hooks = {}) {
    this.hooks = hooks;
    this.nextId = 1;
    /** @type {Map<number, Pending>} */
    this.pending = new Map();
    /** @type {Pending[]} */
    this.protocolWaiters = [];
    /** @type {Worker | null} */
    this.worker = null;
    /** Counts worker starts: a session opened in an earlier worker is gone. */
    this.generation = 0;
    /** @type {string | undefined} */
    this.warmProtocol = undefined;
    /** @type {Promise<void>} */
    this.ready = Promise.resolve();
    /** @type {(() => void) | undefined} */
    this.readyResolve = undefined;
    /** @type {((e: Error) => void) | undefined} */
    this.readyReject = undefined;
    /**
     * The module the worker runs (www/engine-modules.js; '' the whole engine), null before the first request: the
     * worker starts then, with the module of the protocol asked for.
     * @type {string | null}
     */
    this.module = null;
    /** @type {Promise<SplitEngine | null> | null} */
    this.split = null;
    /** @type {SplitEngine | null} */
    this.splitValue = null;
  }

  /** @param {ToWorker} message @param {Transferable[]} [transfer] */
  post(message, transfer = []) {
    if (!this.worker) this.start();
    /** @type {Worker} */ (this.worker).postMessage(message, transfer);
  }

  /**
   * Makes the worker run the module that holds `protocol` (none given: the current one): a worker running another
   * is replaced (as on a restart: pending requests reject, sessions open again when used).
   * @param {string | undefined} protocol
   */
  use(protocol) {
    if (protocol === undefined) return;
    const module = moduleFor(this.splitValue, protocol);
    if (module === this.module) return;
    this.module = module;
    if (this.worker) this.restart();
  }

  start() {
    // dist/ and the single-file build (scripts/build-dist) set DROPSCORE_WORKER_URL (a hashed file, a blob: URL);
    // the single file's worker is a classic script (module workers from blob: URLs fail on file:// pages).
    const url = globalThis.DROPSCORE_WORKER_URL ?? new URL('./worker.js', import.meta.url);
    this.module ??= '';
    const name = this.module ? `dropscore:${this.module}` : 'dropscore';
    const worker = new Worker(url, { type: globalThis.DROPSCORE_WORKER_TYPE ?? 'module', name });
    this.worker = worker;
    this.generation++;
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    this.ready.catch(() => {});
    if (this.warmProtocol) this.post({ type: 'warm', protocol: this.warmProtocol });
    worker.addEventListener('message', (e) => this.onMessage(worker, e.data));
    worker.addEventListener('error', (e) => {
      if (worker !== this.worker) return;
      e.preventDefault();
      const message =
        'The scoring engine could not be loaded' + (e.message ? ` (${e.message})` : '') +
        '. If you are running dropscore from a checkout, build it with scripts/build-wasm.';
      this.fail(new EngineError(message, { fatal: true }));
    });
    worker.addEventListener('messageerror', () => {
      if (worker !== this.worker) return;
      this.fail(new EngineError('A message from the scoring engine could not be read.'));
    });
  }

  /** @param {EngineError} err */
  fail(err) {
    this.readyReject?.(err);
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    for (const w of this.protocolWaiters) w.reject(err);
    this.protocolWaiters = [];
    if (err.fatal) this.hooks.onFatal?.(err.message);
  }

  /** @param {Worker} worker @param {FromWorker} msg */
  onMessage(worker, msg) {
    if (worker !== this.worker || !msg || typeof msg !== 'object') return;
    switch (msg.type) {
      case 'ready':
        this.readyResolve?.();
        break;
      case 'protocols': {
        noteViews(msg.list); // which protocols have a view module (www/views/index.js)
        const waiters = this.protocolWaiters;
        this.protocolWaiters = [];
        for (const w of waiters) w.resolve(msg.list);
        break;
      }
      case 'progress': {
        const p = this.pending.get(msg.id);
        p?.onProgress?.(msg.fraction, msg.phase);
        break;
      }
      case 'result': {
        const p = this.take(msg.id);
        if (p) {
          try {
            p.resolve({ report: msg.report ?? JSON.parse(msg.reportJson), reportJson: msg.reportJson, timing: msg.timing });
          } catch (e) {
            p.reject(/** @type {Error} */ (e));
          }
        }
        break;
      }
      case 'reply': { // views, pages of rows, exports, checks, configs: the value as the worker sent it
        const p = this.take(msg.id);
        p?.resolve(msg.value);
        break;
      }
      case 'explained': {
        const p = this.take(msg.id);
        p?.resolve(msg.lines);
        break;
      }
      case 'opened': {
        const p = this.take(msg.id);
        p?.resolve(msg);
        break;
      }
      case 'error': {
        const err = new EngineError(String(msg.message ?? 'unknown error'), { fatal: !!msg.fatal });
        if (msg.id === null || msg.id === undefined) {
          // Not tied to a request: the engine itself failed (e.g. init()).
          this.fail(err);
        } else {
          this.take(msg.id)?.reject(err);
          // A failed run may leave the wasm instance in a bad state (a panic aborts it): start afresh, unless the
          // wasm threw the error on purpose (its sessions are still good).
          if (!msg.recoverable) this.restart();
        }
        break;
      }
      default:
        break;
    }
  }

  /** @param {number} id */
  take(id) {
    const p = this.pending.get(id);
    this.pending.delete(id);
    return p;
  }

  /**
   * Sends `message` with a fresh id; resolves with the worker's answer. Aborting `signal` cancels it (and every
   * other pending request: the worker is restarted).
   * @template T
   * @param {import('./api').Request} message
   * @param {RequestOptions} [opts]
   * @returns {Promise<T>}
   */
  request(message, { onProgress, signal } = {}) {
    if (signal?.aborted) return Promise.reject(new CancelledError());
    this.use(protocolOf(message));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => this.cancel();
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        resolve: (v) => { done(); resolve(v); },
        reject: (e) => { done(); reject(e); },
        onProgress,
      });
      this.post(/** @type {ToWorker} */ ({ ...message, id }));
    });
  }

  /**
   * Opens a session on `files` (one Score click): the worker reads each file once, and the session's requests
   * reuse what it read. A session outlives a worker restart: it is opened again (the files read again) when used.
   * @param {string} protocol
   * @param {PageFile[]} files
   * @param {RequestOptions} [opts]
   * @returns {Promise<Session>}
   */
  async open(protocol, files, opts = {}) {
    const session = new Session(this, protocol, files);
    await session.opened(opts);
    return session;
  }

  /**
   * Asks the worker to exercise `protocol`'s scoring code while the user picks files (no answer awaited; a
   * restarted worker is asked again).
   * @param {string} protocol
   */
  warm(protocol) {
    this.use(protocol);
    this.warmProtocol = protocol;
    this.post({ type: 'warm', protocol });
  }

  /**
   * Every protocol's description: from the split engine's description when there is one (no wasm loaded), else
   * from the worker.
   * @returns {Promise<ProtocolInfo[]>}
   */
  async protocols() {
    this.split ??= loadSplit().then((m) => (this.splitValue = m));
    const split = await this.split;
    if (split) {
      noteViews(split.protocols); // which protocols have a view module (www/views/index.js)
      return split.protocols;
    }
    return new Promise((resolve, reject) => {
      this.protocolWaiters.push({ resolve, reject });
      this.post({ type: 'protocols' });
    });
  }

  /** Stops whatever runs now; every pending promise rejects with CancelledError. */
  cancel() {
    this.restart(new CancelledError());
  }

  /** @param {Error} [reason] */
  restart(reason) {
    const old = this.worker;
    this.worker = null;
    old?.terminate();
    const err = reason ?? new EngineError('The scoring engine was restarted.');
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    for (const w of this.protocolWaiters) w.reject(err);
    this.protocolWaiters = [];
    this.start();
  }
}

let nextSession = 1;

/**
 * The files of one Score click, held by the worker (www/API.md, "Sessions"). Every method waits for the files to
 * be read; after a worker restart the first use opens the session again.
 */
export class Session {
  /** @param {Engine} engine @param {string} protocol @param {PageFile[]} files */
  constructor(engine, protocol, files) {
    this.engine = engine;
    this.id = nextSession++;
    this.protocol = protocol;
    this.files = files;
    this.generation = -1;
    /** @type {Promise<import('./api').Opened> | null} */
    this.opening = null;
    this.closed = false;
  }

  /**
   * Resolves once the worker holds the files (opening them now if this worker does not).
   * @param {RequestOptions} [opts]
   * @returns {Promise<import('./api').Opened>}
   */
  opened(opts = {}) {
    if (this.closed) return Promise.reject(new EngineError('this session was closed'));
    if (!this.opening || this.generation !== this.engine.generation) {
      this.generation = this.engine.generation;
      const opening = this.engine.request({ type: 'open', session: this.id, protocol: this.protocol, files: this.files }, opts);
      opening.catch(() => { if (this.opening === opening) this.opening = null; });
      this.opening = opening;
    }
    return /** @type {Promise<import('./api').Opened>} */ (this.opening);
  }

  /**
   * Scores the session's files. `keep`: the report is one of the two the explanation compares. `limit`: the report
   * comes with at most that many rows and `items_total` when it has more (www/API.md, "Cut reports"); the rest are
   * read with `itemsPage` and the whole report with `export` (both need `keep`).
   * @param {ScoreOptions} options
   * @param {RequestOptions & {keep?: boolean, limit?: number}} [opts]
   * @returns {Promise<ScoreResult>}
   */
  async score(options, { keep = false, limit, ...opts } = {}) {
    await this.opened(opts);
    return this.engine.request({ type: 'score', session: this.id, options, keep, limit, parseInPage: true }, opts);
  }

  /**
   * One line per difference between the two kept reports (scored with `keep`), computed in wasm from the reports it
   * kept.
   * @param {RequestOptions} [opts]
   * @returns {Promise<string[]>}
   */
  async explain(opts = {}) {
    await this.opened(opts);
    return this.engine.request({ type: 'explain', session: this.id }, opts);
  }

  /**
   * A page of a kept cut report's rows: `query` `{ filter, sort, dir, offset, count }` (src/items_query.rs).
   * @param {import('./api').Mode} mode
   * @param {import('./api').ItemsQuery} query
   * @returns {Promise<import('./api').ItemsPage>}
   */
  itemsPage(mode, query) {
    return this.request({ type: 'items-page', mode, query });
  }

  /**
   * A kept report as the CLI writes it with `--format json` or `--format csv`, as a Blob.
   * @param {import('./api').Mode} mode
   * @param {'json' | 'csv'} format
   * @param {RequestOptions} [opts]
   * @returns {Promise<Blob>}
   */
  export(mode, format, opts = {}) {
    return this.request({ type: 'export', mode, format }, opts);
  }

  /**
   * The session protocol's view `name` on its files (src/protocols/views.rs; www/API.md, "Views"): `args` as the
   * view takes them (e.g. `{ image: '001' }`), `options` those of the report shown. Resolves with the view's JSON,
   * its typed arrays set on it (an overlay's `rgba`…); rejects with the view's sentence when it cannot answer.
   * @template T
   * @param {string} name
   * @param {Record<string, unknown>} args
   * @param {ScoreOptions} options
   * @param {RequestOptions} [opts]
   * @returns {Promise<T>}
   */
  view(name, args, options, opts = {}) {
    return this.request({ type: 'view', name, args, options }, opts);
  }

  /**
   * A request on the session's files, answered with `reply` (the `REPLIES` of www/worker.js).
   * @template T
   * @param {{type: string, [key: string]: unknown}} message
   * @param {RequestOptions} [opts]
   * @returns {Promise<T>}
   */
  async request(message, opts = {}) {
    await this.opened(opts);
    return this.engine.request(/** @type {import('./api').Request} */ ({ ...message, session: this.id }), opts);
  }

  /** Frees the files in the worker. */
  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.opening && this.generation === this.engine.generation && this.engine.worker) {
      this.engine.post({ type: 'close', session: this.id });
    }
  }
}
