/** The status line under the header (a polite live region): what just happened, or what went wrong. */
export function showNotice(text: string, kind: "info" | "error" = "info"): void {
  const notice = document.getElementById("notice");
  if (notice === null) return;
  notice.textContent = text;
  notice.classList.toggle("error", kind === "error");
}
