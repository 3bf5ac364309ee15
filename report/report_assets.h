// The report page's own stylesheet and script, inlined into every report so
// the file opens from disk with no network access.
#pragma once

namespace passlab {

/// The stylesheet (contents of the <style> element).
const char* reportStylesheet();

/// The script (contents of the last <script> element). It reads the embedded
/// data (`<script id="passlab-data" type="application/json">`) and renders a
/// diff, a code listing or a graph when its <details> element is opened;
/// "Expand all" (or opening the page with #expand-all) renders everything.
/// It sets every text through textContent and shows graphs as <img> data
/// URLs, so no embedded string is ever parsed as markup or run.
const char* reportScript();

}  // namespace passlab
