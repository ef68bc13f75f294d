// The messages between the page (www/engine.js) and the scoring worker (www/worker.js), and the API of the
// <dropscore-evaluator> element (www/embed.js). Prose: www/API.md. Checked by `tsc --noEmit -p www` and
// `-p www/tsconfig.worker.json` (scripts/test, step `types`) against the JSDoc of the JS files marked `// @ts-check`.

export type Mode = 'official' | 'corrected';
export type Role = 'gt' | 'pred';

/** `{ mode, set }`: the mode and the `--set NAME=VALUE` options the user changed. */
export interface ScoreOptions {
  mode: Mode;
  set: Record<string, string>;
}

/** A dropped file as the page hands it to the worker (`path`: `webkitRelativePath` for folders, else the name). */
export interface PageFile {
  path: string;
  role: Role | null;
  data: Blob;
}

/** What the wasm accepts: the page's Blobs, or bytes (tests, benchmarks). */
export interface WasmFile {
  path: string;
  role: Role | null;
  data: Blob | Uint8Array;
}

export interface OptionSpec {
  name: string;
  type: string;
  default_official: string | null;
  default_corrected: string | null;
  help: string;
}

export interface Example {
  id: string;
  label: string;
  gt: string[];
  pred: string[];
  /** Options the example needs, `[name, value]` pairs (absent when none). */
  set?: [string, string][];
}

export interface ProtocolInfo {
  id: string;
  name: string;
  built: boolean;
  summary: string;
  gt_files: string;
  pred_files: string;
  options: OptionSpec[];
  examples: Example[];
  /** The page has a view of this protocol's reports: the module `www/views/<id>.js`. */
  view: boolean;
  /** Data files scoring uses when they are there (src/protocols/views.rs `Asset`). */
  assets: Asset[];
}

/** A protocol's data file, served as `www/assets/<file>` (the worker loads it when a report needs it). */
export interface Asset {
  name: string;
  file: string;
  /** what it is, as a sentence's subject: "the Russian dictionary" */
  label: string;
  /** about its size in bytes, for progress when the server sends no Content-Length */
  size_hint: number;
  /** the diagnostic code of a report the asset would change: the worker loads it and scores again */
  needed_after: string;
  /** what scoring does without it ("lemmas are approximate") */
  without: string;
  /** the page's note while the server lacks the file, and once it appears: a bold lead, then the rest */
  missing: [string, string];
  ready: [string, string];
  cli_flag: string;
  env: string;
}

export interface Diagnostic {
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  hint?: string;
  official_behaviour?: string;
  [key: string]: unknown;
}

/** A report (schema 1); the fields the page reads. The exact JSON is `reportJson`. */
export interface Report {
  schema: 1;
  protocol: string;
  mode: Mode;
  options: Record<string, unknown>;
  scores: Record<string, number | null>;
  groups: Array<{ id: string; scores: Record<string, number | null>; [key: string]: unknown }>;
  items: Array<{ id: string; group?: string; scores?: Record<string, number | null>; detail?: any; [key: string]: unknown }>;
  diagnostics: Diagnostic[];
  display?: { title?: string; headline?: Array<{ id: string; label?: string; decimals?: number }>; footer?: string; [key: string]: unknown };
  official_fails?: boolean;
  deviations?: string[];
  readings?: Array<{ id: string; label: string; scores: Record<string, any> }>;
  plots?: unknown[];
  /** set when the report was cut (score with `limit`): how many rows it has; `items` holds the first ones */
  items_total?: number;
}

export interface Timing {
  /** wasm scoring (and the retry with a loaded asset), ms */
  score_ms: number;
  /** the worker's JSON.parse of the report (0 with parseInPage), ms */
  parse_ms: number;
  /** when the result was posted (performance.timeOrigin + now) */
  posted_at: number;
  /** the wasm memory's size after the score, bytes (it only grows, and includes the up-front reservation) */
  memory_bytes: number;
}

/** What `Session.score` resolves to on the page. */
export interface ScoreResult {
  report: Report;
  reportJson: string;
  timing?: Timing;
  /** What the page draws beside the report (`page-view`, src/render/page.rs). */
  view?: PageView;
}

/** The headline hints, the per-item table's columns and the plot specs of a kept report (src/render/page.rs). */
export interface PageView {
  /** rest: every other metric, those computed first. */
  headline: { primary: string | null; beside: string[]; rest: string[] };
  binary32: boolean;
  /** Official and corrected are the same by definition: one column, no comparison. */
  one_mode: boolean;
  /** The input's root-cause error (shown once, above the scores), or null. */
  cause: Diagnostic | null;
  /** The deviations from the official setup that change how the input is scored. */
  deviations: string[];
  columns: { id: string; label: string; kind: 'id' | 'group' | 'scores' | 'detail'; decimals?: number }[];
  first_cells: string[][];
  plots: any[];
  /** With public and private parts: each part's headline metric, one line each (`public part: map 0.51850`). */
  parts: string[];
}

/** An image overlay (a protocol's `overlay` view): what src/protocols/views.rs `Overlay` gives. */
export interface Overlay {
  width: number;
  height: number;
  rgba: Uint8Array;
  gt_labels: Uint32Array;
  pred_labels: Uint32Array;
  meta: { counts: Record<string, number>; [key: string]: any };
}

// ---------------------------------------------------------------- page → worker

export interface ProtocolsRequest { type: 'protocols' }
export interface WarmRequest { type: 'warm'; protocol: string }
/** Opens session `session` (an id the page chose) on `files`: the worker reads each file once. */
export interface OpenRequest { type: 'open'; id: number; session: number; protocol: string; files: WasmFile[] }
/** Frees a session's files (no answer). */
export interface CloseRequest { type: 'close'; session: number }
/** Scores a session's files; `keep`: keep the report for `explain`; `parseInPage`: omit `report` in the answer. */
export interface ScoreRequest { type: 'score'; id: number; session: number; options: ScoreOptions; keep?: boolean; parseInPage?: boolean; limit?: number }
/** A page of a kept report's rows (answered with `reply`, `value`: ItemsPage). */
export interface ItemsPageRequest { type: 'items-page'; id: number; session: number; mode: Mode; query: ItemsQuery }
export interface ItemsQuery { filter?: string; sort?: string | null; dir?: number; offset?: number; count?: number }
export interface ItemsPage { total: number; matched: number; rows: Report['items']; cells: string[][] }
/** A kept report as the CLI's `--format json` / `--format csv` bytes (answered with `reply`, `value`: Blob). */
export interface ExportRequest { type: 'export'; id: number; session: number; mode: Mode; format: 'json' | 'csv' }
/** The differences between the session's two kept reports. */
export interface ExplainRequest { type: 'explain'; id: number; session: number }
/** The session protocol's view `name` (src/protocols/views.rs) with `args`, for the report of `options`: answered
 *  with `reply`, `value` the view's JSON with its typed arrays set on it (an Overlay, a list of images…). */
export interface ViewRequest { type: 'view'; id: number; session: number; name: string; options: ScoreOptions; args: Record<string, unknown> }
/** Validates a competition config's JSON form (answered with `reply`, `value`: ConfigAnswer). */
export interface ConfigRequest { type: 'config'; id: number; text: string }
/** The pre-flight check of predictions against a manifest's JSON text (www/check.js; answered with `reply`,
 *  `value`: CheckResult). */
export interface CheckRequest { type: 'check'; id: number; protocol: string; manifest: string; files: PageFile[]; options?: Partial<ScoreOptions> }
export interface CheckResult { ready: boolean; summary: string; report: Report; timing: { check_ms: number; memory_bytes: number } }

export type ToWorker =
  | ProtocolsRequest | WarmRequest | OpenRequest | CloseRequest | ScoreRequest | ExplainRequest
  | ViewRequest | ConfigRequest | CheckRequest | ItemsPageRequest | ExportRequest;

/** A request as `Engine.request` takes it: the id is added there. */
export type Request = DistributiveOmit<Extract<ToWorker, { id: number }>, 'id'>;
type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never;

// ---------------------------------------------------------------- worker → page

export interface ReadyMessage { type: 'ready' }
export interface ProtocolsMessage { type: 'protocols'; list: ProtocolInfo[] }
export interface ProgressMessage { type: 'progress'; id: number | null; fraction: number; phase: string }
export interface Opened { type: 'opened'; id: number; session: number; bytes_in_memory: number; read_ms: number }
export interface ResultMessage { type: 'result'; id: number; report?: Report; reportJson: string; timing: Timing }
export interface ExplainedMessage { type: 'explained'; id: number; lines: string[] }
export interface WarmedMessage { type: 'warmed'; protocol: string; ms: number; value: number | null }
export interface ReplyMessage { type: 'reply'; id: number; value: unknown }
/** `id` null: not tied to a request (the engine failed to start). `recoverable`: the wasm threw it on purpose. */
export interface ErrorMessage { type: 'error'; id: number | null; message: string; fatal?: boolean; recoverable?: boolean }

export type FromWorker =
  | ReadyMessage | ProtocolsMessage | ProgressMessage | Opened | ResultMessage | ExplainedMessage | WarmedMessage
  | ReplyMessage | ErrorMessage;

export interface ConfigError { line: number; column: number; path: string; message: string }
export type ConfigAnswer = { config: CompetitionConfig; errors?: undefined } | { errors: ConfigError[]; config?: undefined };

/** A competition config's JSON form (src/config.rs); the fields the page reads. */
export interface CompetitionConfig {
  protocol: string;
  title?: string;
  mode?: Mode;
  options?: Record<string, string | number | boolean>;
  ground_truth?: string[];
  /** a pre-flight manifest (same-origin URL): the embed checks submissions instead of scoring them */
  manifest?: string;
  hide_ground_truth_zone?: boolean;
  leaderboard?: { columns?: unknown[]; [key: string]: unknown };
  [key: string]: unknown;
}

// ---------------------------------------------------------------- <dropscore-evaluator>

/** The state the page exposes as `data-run` (on <body>, or on the element when embedded). */
export type RunState = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

/**
 * `<dropscore-evaluator config="dropscore.json">`. Attribute `config`: URL of the JSON config (same origin).
 * The element exposes `data-run` (RunState) and `data-runs` (runs started), and `app` once mounted.
 */
export interface DropscoreEvaluatorElement extends HTMLElement {
  app?: MountedApp;
}

/** What `mountApp` returns (www/app.js). */
export interface MountedApp {
  engine: import('./engine.js').Engine;
  state: Record<string, unknown>;
  zones: { gt: unknown; pred: unknown };
}

/** The page's split engine (www/pkg/modules.json, written by scripts/build-wasm). */
export interface SplitEngine {
  /** Each module: its file (relative to www/pkg/), its protocols and its size in bytes. */
  modules: Record<string, { file: string; protocols: string[]; raw: number; gzip: number; brotli: number }>;
  /** Every protocol's description, with the module that holds it. */
  protocols: (ProtocolInfo & { module: string })[];
}

declare global {
  /** Set by the static build's prelude (scripts/build-dist). */
  var DROPSCORE_WORKER_URL: string | URL | undefined;
  var DROPSCORE_WORKER_TYPE: WorkerType | undefined;
  var DROPSCORE_WASM: any;
  var DROPSCORE_WASM_MODULES: Record<string, any> | undefined;
  var DROPSCORE_MODULES: SplitEngine | undefined;
  var DROPSCORE_CSS: string | undefined;
}
