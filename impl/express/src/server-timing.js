// Server-Timing: app;dur=<ms, 3 decimals> on every response (bench/k6/measure.js
// reads app;dur=). Measured from this middleware — mounted first in the app's
// chain — to the moment the headers are written (on-headers hooks writeHead),
// which is the latest a header can still be set; res.on('finish') would be too
// late. Problems (4xx, 404 of unknown paths, 500) are timed the same way.
import onHeaders from 'on-headers';

export function serverTiming(req, res, next) {
  const started = process.hrtime.bigint();
  onHeaders(res, function setServerTiming() {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    this.setHeader('Server-Timing', `app;dur=${ms.toFixed(3)}`);
  });
  next();
}
