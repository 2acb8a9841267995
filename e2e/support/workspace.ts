import { expect, type Page } from "@playwright/test";

/**
 * Creates a workspace of the signed-in user from the sidebar ("New workspace…", a button, or the last
 * option of the workspace picker once there are several) and opens it: a spec that needs an empty
 * workspace makes its own, since the shared one holds the other specs' mailboxes, leads and campaigns.
 */
export async function openNewWorkspace(page: Page, name: string): Promise<void> {
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  const picker = sidebar.getByRole("combobox", { name: "Workspace" });
  if (await picker.count()) await picker.selectOption({ label: "New workspace…" });
  else await sidebar.getByRole("button", { name: "New workspace…" }).click();
  const dialog = page.getByRole("dialog", { name: "New workspace" });
  await dialog.getByLabel("Workspace name").fill(name);
  await dialog.getByRole("button", { name: "Create and open" }).click();
  await expect(page).toHaveURL(/\/leads$/);
  await expect
    .poll(() =>
      page
        .getByTestId("workspace-name")
        .evaluate((el) => (el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.text ?? "") : (el.textContent ?? ""))),
    )
    .toContain(name);
}
