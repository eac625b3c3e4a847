// Class mode's phone: the server drew this hook because the room moved on since the
// student's question was drawn (a next question, a lock, a reveal). It asks the server, once
// per mark, to draw the question again; the server draws it only while the question on the
// phone is out of date, so a phone that waits costs the server a rerun that draws nothing.
const asked = new WeakMap();  // parentElement -> the last mark asked for

export default function moved({ data, parentElement, setTriggerValue }) {
  const mark = (data || {}).mark;
  if (!mark || asked.get(parentElement) === mark) return;
  asked.set(parentElement, mark);
  setTriggerValue("moved", mark);
}
