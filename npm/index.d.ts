// Types of the dropscore package (index.js). The report and protocol shapes are the page's (api.d.ts).
import type { ProtocolInfo, Report, Mode } from './api.js';

export type { ProtocolInfo, Report, Mode, Diagnostic, OptionSpec, Example } from './api.js';

/** One input file: its path (shown in diagnostics; folders as `folder/file`), its role, its bytes. */
export interface InputFile {
  path: string;
  role: 'gt' | 'pred';
  data: Uint8Array | Blob;
}

export interface Options {
  /** `official` (default) or `corrected`. */
  mode?: Mode;
  /** Protocol options, as `--set NAME=VALUE` takes them. */
  set?: Record<string, string | number | boolean>;
  /** Called with the fraction done (0..1) and a phrase. */
  onProgress?: (fraction: number, phase: string) => void;
}

/** Loads the WebAssembly once (Node: from the package; browsers: next to index.js, or from `source`). */
export function init(source?: BufferSource | Response | URL | string | WebAssembly.Module): Promise<void>;
/** Every protocol of the registry (`dropscore list --format json`). */
export function protocols(): Promise<ProtocolInfo[]>;
/** The report's JSON text, byte for byte the command line's `--format json`. Throws a string on usage errors. */
export function scoreJson(protocol: string, files: InputFile[], options?: Options): Promise<string>;
/** The report, parsed. */
export function score(protocol: string, files: InputFile[], options?: Options): Promise<Report>;
/** The pre-flight check against a manifest: the report with `ready` and `summary`. */
export function check(
  protocol: string,
  manifest: string | object,
  files: Omit<InputFile, 'role'>[],
  options?: Omit<Options, 'onProgress'>,
): Promise<Report & { ready: boolean; summary: string }>;
/** Loads a protocol's data asset (listed under `assets` by `protocols()`) from its bytes. */
export function loadAsset(name: string, bytes: Uint8Array): Promise<string>;
/** Validates a competition config in its JSON form (`dropscore config dropscore.toml` prints it): `{config}` or `{errors: [{line, column, path, message}]}`. */
export function checkConfig(json: string): Promise<{ config?: unknown; errors?: { line: number; column: number; path: string; message: string }[] }>;
