// Class mode's next question: the teacher pressed Next question far down the page (below
// the previous reveal); the new question starts at the top of the page, so it is scrolled
// there, once per mark (a question's round), not on each rerun that follows.
let lastMark = null;

export default function toTop({ data }) {
  const mark = (data || {}).mark;
  if (mark === lastMark) return;
  const first = lastMark === null;
  lastMark = mark;
  if (first) return;  // the page just opened: it is at its top already, or where a link said
  const main = document.querySelector("[data-testid='stMain']");
  if (main) main.scrollTo({ top: 0 });
  window.scrollTo({ top: 0 });
}
