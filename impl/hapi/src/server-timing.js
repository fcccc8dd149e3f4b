// Server-Timing: app;dur=<ms, 3 decimals> on every response (bench/k6/measure.js reads
// app;dur=), problems and unknown paths included, measured Hapi's way: from onRequest (the
// first extension point, before routing) to onPreResponse (the last one before the response
// is transmitted). Registered as a plugin so that its onPreResponse runs after the problem
// renderer's (plugins' extensions run in registration order) and sees the final response.

const START = Symbol('fairbench.start');

export const serverTiming = {
  name: 'fairbench-server-timing',
  register(server) {
    server.ext('onRequest', (request, h) => {
      request.plugins[START] = process.hrtime.bigint();
      return h.continue;
    });
    server.ext('onPreResponse', (request, h) => {
      const ms = Number(process.hrtime.bigint() - request.plugins[START]) / 1e6;
      const value = `app;dur=${ms.toFixed(3)}`;
      const response = request.response;
      if (response.isBoom) response.output.headers['Server-Timing'] = value;
      else response.header('Server-Timing', value);
      return h.continue;
    });
  },
};
