import http from "node:http";

/**
 * One non-streaming `/v1/chat/completions` call per `chat(port, user, text, model)`, over a
 * keep-alive agent (the benches measure the gateway, not TCP handshakes). `model` picks the agent
 * (`openclaw:<agentId>`, docs/http-api.md); the default agent without it. Resolves with the parsed body.
 * `chat.close()` drops the kept-alive sockets.
 */
export function createChatClient({ host = "127.0.0.1", token, maxSockets = 64 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  function chat(port, user, text, model = "openclaw") {
    const body = JSON.stringify({ model, user, messages: [{ role: "user", content: text }] });
    return new Promise((resolve, reject) => {
      const headers = { "content-type": "application/json", authorization: `Bearer ${token}`, "content-length": Buffer.byteLength(body) };
      const req = http.request({ host, port, path: "/v1/chat/completions", method: "POST", agent, headers }, (res) => {
        let data = "";
        res.on("data", (c) => (data += c));
        res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(data)) : reject(new Error(`HTTP ${res.statusCode}: ${data.slice(0, 200)}`))));
      });
      req.on("error", reject);
      req.end(body);
    });
  }
  chat.close = () => agent.destroy();
  return chat;
}
