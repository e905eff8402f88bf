// Registers sw.js, which keeps the site in the browser's cache so that a page visited once loads
// and plays without the network. Imported by every page; a browser without service workers (or a
// page opened from file:) simply goes without.
if ("serviceWorker" in navigator && (location.protocol === "https:" || location.protocol === "http:")) {
  // updateViaCache "none": the browser asks the host for sw.js itself on every check, so a new
  // version of the site is installed on the next load, whatever the host's caching headers.
  navigator.serviceWorker
    .register(new URL("sw.js", import.meta.url), { updateViaCache: "none" })
    .catch((error) => console.warn(`The site cannot be kept for offline use: ${error.message}`));
}
