/** The cookie naming the dashboard's current workspace: read by the API edge and the dashboard layout. */
const COOKIE = "outreach_workspace";

/** Makes `workspaceId` the workspace of the dashboard's next requests (the server checks membership). */
export function setWorkspaceCookie(workspaceId: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the server reads this cookie; the Cookie Store API is not in every browser yet
  document.cookie = `${COOKIE}=${encodeURIComponent(workspaceId)}; path=/; max-age=31536000; samesite=lax`;
}
