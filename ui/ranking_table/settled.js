// The hidden listener: fires its ``settled`` trigger when a ranking table on the page has
// drawn the engine's answer to one of its events (bridge.js dispatches the event).
export default function settled({ setTriggerValue }) {
  let count = 0;
  const handler = () => setTriggerValue("settled", ++count);
  window.addEventListener("ndcg-ranking-table-settled", handler);
  return () => window.removeEventListener("ndcg-ranking-table-settled", handler);
}
