// The "Write it yourself" editor: CodeMirror 6 (line numbers, Python highlighting, Tab
// indents; Escape then Tab leaves the editor) with the page's two buttons. Bundled with its
// CodeMirror packages into ../editor.js by ../build.sh; nothing is fetched at run time.
//
// What crosses to Python (ui/code_editor/__init__.py):
//   data:   {exercise, stub, labels: {code, run, reset, saved}, passed: [exercise keys]}
//   state:  code (the text run), learner (a random id kept in this browser), progress
//           (the exercises this browser has passed); trigger: run (one per press).
// Drafts and progress live in this browser's localStorage; the code reaches the server
// only when Run the tests is pressed, so typing costs the server nothing.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { EditorState } from "@codemirror/state";
import { indentWithTab } from "@codemirror/commands";
import { indentUnit } from "@codemirror/language";
import { python } from "@codemirror/lang-python";

const INSTANCES = new WeakMap();
const PREFIX = "ndcg-lab-code:";

function store(name, value) {
  try {
    if (value === undefined) return window.localStorage.getItem(PREFIX + name);
    window.localStorage.setItem(PREFIX + name, value);
  } catch (e) { /* storage off (private mode): drafts last as long as the page */ }
  return null;
}

function learnerId() {
  let id = store("learner");
  if (!id) {
    const bytes = new Uint8Array(8);
    window.crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    store("learner", id);
  }
  return id;
}

// Every word the editor shows comes from data.labels, written as text, never parsed as HTML.
function setText(node, text) {
  node.textContent = text;
}

function progress() {
  try { return JSON.parse(store("passed") || "[]").filter((k) => typeof k === "string"); }
  catch (e) { return []; }
}

function makeState(doc, inst) {
  return EditorState.create({
    doc,
    extensions: [
      basicSetup, python(), keymap.of([indentWithTab]), indentUnit.of("    "),
      EditorView.lineWrapping,   // a phone's or a narrow column's long lines stay in view
      EditorView.contentAttributes.of({ "aria-label": inst.labels.code }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) store("draft:" + inst.exercise, u.state.doc.toString());
      }),
    ],
  });
}

function mount(parentElement, data, setStateValue, setTriggerValue) {
  const host = parentElement.querySelector(".code-editor");
  const buttons = parentElement.querySelector(".code-buttons");
  const inst = { exercise: data.exercise, labels: data.labels, view: null };
  inst.view = new EditorView({
    state: makeState(store("draft:" + data.exercise) || data.stub, inst),
    parent: host, root: parentElement,
  });
  const run = document.createElement("button");
  run.type = "button";
  run.className = "code-run";
  run.addEventListener("click", () => {
    setStateValue("code", inst.view.state.doc.toString());
    setTriggerValue("run", Date.now());
  });
  const reset = document.createElement("button");
  reset.type = "button";
  reset.className = "code-reset";
  reset.addEventListener("click", () => {
    inst.view.setState(makeState(inst.stub, inst));
    store("draft:" + inst.exercise, inst.stub);
  });
  buttons.append(run, reset);
  inst.run = run;
  inst.reset = reset;
  // once per page: who this browser is, and what it has passed before
  setStateValue("learner", learnerId());
  setStateValue("progress", progress());
  return inst;
}

export default function ({ data, parentElement, setStateValue, setTriggerValue }) {
  let inst = INSTANCES.get(parentElement);
  if (!inst) {
    inst = mount(parentElement, data, setStateValue, setTriggerValue);
    INSTANCES.set(parentElement, inst);
  }
  inst.stub = data.stub;
  if (data.exercise !== inst.exercise || data.labels.code !== inst.labels.code) {
    inst.exercise = data.exercise;
    inst.labels = data.labels;
    inst.view.setState(makeState(store("draft:" + data.exercise) || data.stub, inst));
  }
  setText(inst.run, data.labels.run);
  setText(inst.reset, data.labels.reset);
  if (Array.isArray(data.passed)) {
    const known = new Set([...progress(), ...data.passed]);
    store("passed", JSON.stringify([...known]));
  }
}
