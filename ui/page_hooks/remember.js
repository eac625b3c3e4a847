// Class mode keeps who this browser is in a room (a student's token, the teacher's key) in
// a cookie: the browser sends it with the websocket's first request, where the server reads
// it (st.context.cookies) on the first run of the next visit, a reopened join link, a
// reload, a new server. Path "/" so that the websocket's address carries it; Lax: opening a
// link from another site (a QR reader) still sends it. Written only when the value differs.
export default function remember({ data }) {
  const { name, value, maxAge } = data || {};
  if (!name || !/^[\w-]+$/.test(name) || !/^[\w-]*$/.test(value || "")) return;
  const have = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
  if (have === `${name}=${value}`) return;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${name}=${value}; Max-Age=${value ? maxAge : 0}; Path=/; SameSite=Lax${secure}`;
}
