// The page side of the worker protocol (www/API.md). The page never touches wasm: it posts messages to
// www/worker.js and gets promises back. Cancel = terminate the worker and start a fresh one.

export class CancelledError extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'CancelledError';
  }
}

export class EngineError extends Error {
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
    this.pending = new Map(); // id -> {resolve, reject, onProgress}
    this.protocolWaiters = [];
    this.worker = null;
    this.start();
  }

  start() {
    // dist/ and the single-file build (scripts/build-dist) set DROPSCORE_WORKER_URL (a hashed file, a blob: URL);
    // the single file's worker is a classic script (module workers from blob: URLs fail on file:// pages).
    const url = globalThis.DROPSCORE_WORKER_URL ?? new URL('./worker.js', import.meta.url);
    const worker = new Worker(url, { type: globalThis.DROPSCORE_WORKER_TYPE ?? 'module', name: 'dropscore' });
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    this.ready.catch(() => {});
    if (this.warmProtocol) worker.postMessage({ type: 'warm', protocol: this.warmProtocol });
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

  fail(err) {
    this.readyReject?.(err);
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    for (const w of this.protocolWaiters) w.reject(err);
    this.protocolWaiters = [];
    if (err.fatal) this.hooks.onFatal?.(err.message);
  }

  onMessage(worker, msg) {
    if (worker !== this.worker || !msg || typeof msg !== 'object') return;
    switch (msg.type) {
      case 'ready':
        this.readyResolve?.();
        break;
      case 'protocols': {
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
            p.resolve({ report: msg.report ?? JSON.parse(msg.reportJson), reportJson: msg.reportJson });
          } catch (e) {
            p.reject(e);
          }
        }
        break;
      }
      case 'reply': { // protocol-specific worker messages (www/views/): the value as the worker sent it
        const p = this.take(msg.id);
        p?.resolve(msg.value);
        break;
      }
      case 'explained': {
        const p = this.take(msg.id);
        p?.resolve(msg.lines);
        break;
      }
      case 'error': {
        const err = new EngineError(String(msg.message ?? 'unknown error'), { fatal: !!msg.fatal });
        if (msg.id === null || msg.id === undefined) {
          // Not tied to a request: the engine itself failed (e.g. init()).
          this.fail(err);
        } else {
          this.take(msg.id)?.reject(err);
          // A failed run may leave the wasm instance in a bad state (a panic aborts it): start afresh.
          this.restart();
        }
        break;
      }
      default:
        break;
    }
  }

  take(id) {
    const p = this.pending.get(id);
    this.pending.delete(id);
    return p;
  }

  request(message, onProgress) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ ...message, id });
    });
  }

  /**
   * Asks the worker to exercise `protocol`'s scoring code while the user picks files (no answer awaited; a
   * restarted worker is asked again).
   * @param {string} protocol
   */
  warm(protocol) {
    this.warmProtocol = protocol;
    this.worker.postMessage({ type: 'warm', protocol });
  }

  /** @returns {Promise<Array<object>>} the ProtocolInfo list */
  protocols() {
    return new Promise((resolve, reject) => {
      this.protocolWaiters.push({ resolve, reject });
      this.worker.postMessage({ type: 'protocols' });
    });
  }

  /**
   * @param {string} protocol
   * @param {Array<{path: string, role: 'gt'|'pred'|null, data: Blob}>} files
   * @param {{mode: 'official'|'corrected', set: Record<string, string>}} options
   * @param {(fraction: number, phase: string) => void} onProgress
   * @returns {Promise<{report: object, reportJson: string}>}
   */
  score(protocol, files, options, onProgress) {
    return this.request({ type: 'score', protocol, files, options, parseInPage: true }, onProgress);
  }

  /** @returns {Promise<string[]>} */
  explain(official, corrected) {
    return this.request({ type: 'explain', official, corrected });
  }

  /** Stops whatever runs now; every pending promise rejects with CancelledError. */
  cancel() {
    this.restart(new CancelledError());
  }

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
