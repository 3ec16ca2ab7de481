// A small OpenAI-compatible server for one GGUF model, over node-llama-cpp's prebuilt CPU build.
//
//   node local_model_server.mjs RUNTIME_PREFIX MODEL.gguf PORT MODEL_NAME THREADS CONTEXT_TOKENS
//
// RUNTIME_PREFIX is where npm installed node-llama-cpp (the package is imported from there).
// THREADS of 0 means the cores this process may run on.
// Answers GET /v1/models and POST /v1/chat/completions (no streaming) on 127.0.0.1, one
// request at a time, each in a fresh chat. Greedy sampling unless the request sets a
// temperature, so the same prompt gets the same reply. Prints "listening PORT" once ready,
// and "replied N FINISH_REASON COMPLETION_TOKENS" after each reply, so a test can see how
// each reply ended and act between calls.

import http from "node:http";
import os from "node:os";
import path from "node:path";
import {pathToFileURL} from "node:url";

const [prefix, modelPath, portText, modelName, threadsText, contextText] = process.argv.slice(2);
const entry = path.join(prefix, "node_modules", "node-llama-cpp", "dist", "index.js");
const {getLlama, LlamaChatSession} = await import(pathToFileURL(entry).href);
// llama.cpp's default thread count oversubscribes a machine whose cores are shared or
// limited, and its threads wait for each other: one left without a core stalls them all.
const threads = Number(threadsText) || os.availableParallelism();
const CONTEXT_TOKENS = Number(contextText);

const llama = await getLlama({gpu: false, build: "never"});
const model = await llama.loadModel({modelPath});
const context = await model.createContext({contextSize: CONTEXT_TOKENS, threads});
let queue = Promise.resolve();
let replied = 0;

function send(response, status, body) {
    const data = JSON.stringify(body);
    response.writeHead(status, {"Content-Type": "application/json", "Content-Length": Buffer.byteLength(data)});
    response.end(data);
}

function readBody(request) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        request.on("data", (chunk) => chunks.push(chunk));
        request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        request.on("error", reject);
    });
}

async function complete(body) {
    const messages = body.messages ?? [];
    const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
    const user = messages.filter((m) => m.role !== "system").map((m) => m.content).join("\n\n");
    const sequence = context.getSequence();
    try {
        const session = new LlamaChatSession({contextSequence: sequence, systemPrompt: system || undefined});
        const before = sequence.tokenMeter.getState();
        const reply = await session.promptWithMeta(user, {
            maxTokens: body.max_tokens ?? 256,
            temperature: body.temperature ?? 0,
            seed: body.seed ?? 1,
        });
        const used = sequence.tokenMeter.diff(before);
        return {
            id: `chatcmpl-${replied + 1}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: modelName,
            choices: [{
                index: 0,
                message: {role: "assistant", content: reply.responseText},
                finish_reason: reply.stopReason === "maxTokens" ? "length" : "stop",
            }],
            usage: {
                prompt_tokens: used.usedInputTokens,
                completion_tokens: used.usedOutputTokens,
                total_tokens: used.usedInputTokens + used.usedOutputTokens,
            },
        };
    } finally {
        sequence.dispose();
    }
}

const server = http.createServer(async (request, response) => {
    try {
        if (request.method === "GET" && request.url === "/v1/models") {
            send(response, 200, {object: "list", data: [{id: modelName, object: "model", owned_by: "local"}]});
            return;
        }
        if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
            send(response, 404, {error: {message: `no route ${request.method} ${request.url}`}});
            return;
        }
        const body = JSON.parse(await readBody(request));
        // One sequence in the context: requests take turns.
        const result = queue.then(() => complete(body));
        queue = result.catch(() => undefined);
        const reply = await result;
        send(response, 200, reply);
        replied += 1;
        console.log(`replied ${replied} ${reply.choices[0].finish_reason} ${reply.usage.completion_tokens}`);
    } catch (error) {
        send(response, 500, {error: {message: String(error?.message ?? error), type: "server_error"}});
    }
});

server.listen(Number(portText), "127.0.0.1", () => console.log(`listening ${portText} threads ${threads}`));
