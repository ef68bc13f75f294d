// The app's markup: mounted by www/page.js into index.html's <main> and by www/embed.js into the shadow root of
// <dropscore-evaluator>. Ids are unique within one page or one shadow root.
export const MARKUP = `
  <div id="engine-status" class="notice notice-error" role="alert" hidden></div>

  <section class="step" aria-labelledby="step-protocol-title">
    <h2 id="step-protocol-title"><span class="step-num" aria-hidden="true">1</span><span class="step-label">Competition</span></h2>
    <nav aria-label="Protocols">
      <ul id="protocol-list" class="protocol-list">
        <li class="protocol-loading">Loading the scoring engine…</li>
      </ul>
    </nav>
    <div id="protocol-info" class="protocol-info" hidden>
      <div class="protocol-head">
        <h3 id="protocol-name"></h3>
        <span id="protocol-badge" class="badge badge-muted" hidden>not built yet</span>
      </div>
      <p id="protocol-summary" class="protocol-summary"></p>
      <div id="examples" class="examples" hidden>
        <span class="examples-label">Try an example:</span>
        <span id="example-buttons" class="example-buttons"></span>
      </div>
    </div>
  </section>

  <section class="step" aria-labelledby="step-files-title">
    <h2 id="step-files-title"><span class="step-num" aria-hidden="true">2</span>Files</h2>
    <p id="gt-preloaded" class="notice notice-info gt-preloaded" hidden></p>
    <div class="zones">
      <section class="zone" id="zone-gt" data-role="gt" aria-labelledby="zone-gt-title">
        <div class="zone-drop">
          <h3 id="zone-gt-title" class="zone-title">Ground truth</h3>
          <p class="zone-expect" id="zone-gt-expect"></p>
          <p class="zone-how">Drop files, a folder or a .zip here, or</p>
          <div class="zone-actions">
            <input type="file" multiple id="gt-files" class="visually-hidden" data-role="gt">
            <label for="gt-files" class="btn btn-small">Choose files…</label>
            <input type="file" webkitdirectory multiple id="gt-folder" class="visually-hidden" data-role="gt">
            <label for="gt-folder" class="btn btn-small">Choose folder…</label>
          </div>
        </div>
        <div class="zone-files" id="gt-list"></div>
      </section>
      <section class="zone" id="zone-pred" data-role="pred" aria-labelledby="zone-pred-title">
        <div class="zone-drop">
          <h3 id="zone-pred-title" class="zone-title">Predictions</h3>
          <p class="zone-expect" id="zone-pred-expect"></p>
          <p class="zone-how">Drop files, a folder or a .zip here, or</p>
          <div class="zone-actions">
            <input type="file" multiple id="pred-files" class="visually-hidden" data-role="pred">
            <label for="pred-files" class="btn btn-small">Choose files…</label>
            <input type="file" webkitdirectory multiple id="pred-folder" class="visually-hidden" data-role="pred">
            <label for="pred-folder" class="btn btn-small">Choose folder…</label>
          </div>
        </div>
        <div class="zone-files" id="pred-list"></div>
      </section>
    </div>
  </section>

  <section class="step" aria-labelledby="step-run-title">
    <h2 id="step-run-title"><span class="step-num" aria-hidden="true">3</span>Score</h2>
    <div class="run-settings">
      <fieldset class="mode" id="mode-fieldset">
        <legend>Mode</legend>
        <label class="mode-choice"><input type="radio" name="mode" value="official" checked>
          <span><strong>Official</strong> <span class="mode-help">reproduces the organizers' scorer exactly, quirks included</span></span></label>
        <label class="mode-choice"><input type="radio" name="mode" value="corrected">
          <span><strong>Corrected</strong> <span class="mode-help">applies the documented fixes</span></span></label>
      </fieldset>
      <details class="options" id="options">
        <summary><span class="options-title">Options</span> <span id="options-state" class="options-state">defaults</span></summary>
        <div id="options-body" class="options-body"></div>
      </details>
    </div>
    <div class="run-bar">
      <button type="button" id="score-button" class="btn btn-primary" disabled>Score</button>
      <p id="run-hint" class="run-hint">Add ground-truth and prediction files.</p>
    </div>
    <div id="status" class="status" aria-live="polite">
      <div id="progress-box" class="progress-box" hidden>
        <progress id="progress" max="1" value="0" aria-labelledby="progress-phase"></progress>
        <span id="progress-phase" class="progress-phase"></span>
        <button type="button" id="cancel-button" class="btn btn-small">Cancel</button>
      </div>
      <p id="status-text" class="status-text"></p>
    </div>
  </section>

  <p id="result-announce" class="visually-hidden" aria-live="polite" aria-atomic="true"></p>
  <section id="results" class="results" aria-labelledby="results-title" hidden tabindex="-1"></section>
`;
