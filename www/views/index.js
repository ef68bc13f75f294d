// Protocol-specific views in a report's details (after the plots, before the per-item table): one module per
// protocol, imported only when a report of that protocol is shown. Add one line per protocol:
//
//   fest: () => import('./fest.js'),
//
// A view module exports `render(entry, ctx)`, which returns a Node, an array of Nodes, or a promise of either:
//   entry  { report, reportJson }               the shown report (www/API.md)
//   ctx    { engine, session, set, mode, table }  engine: www/engine.js; session: the run's files as the worker
//                                               holds them (www/engine.js Session: `session.request({ type, ... })`
//                                               resolves with what the worker's EXTRA[type] handler returns, see
//                                               www/worker.js; `session.score(options)` scores them again without
//                                               reading them again), set/mode: the options of this report
// It must not modify the report, and everything it draws comes from the report or from the engine.
export const VIEWS = {
  aij2022: () => import('./aij2022.js'),
  detection: () => import('../viewer-detection.js'),
  falsid: () => import('./falsid.js'),
  fest: () => import('./fest.js'),
  segmentation: () => import('../viewer-segmentation.js'),
};
