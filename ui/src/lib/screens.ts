// The screens of the window, in the order of a real install.

export const SCREENS = [
  { id: "overview", title: "Overview" },
  { id: "isos", title: "ISOs" },
  { id: "server-groups", title: "Server groups" },
  { id: "networks", title: "Networks" },
  { id: "aci", title: "ACI" },
  { id: "keys", title: "SSH keys" },
  { id: "settings", title: "Settings" },
  { id: "hosts", title: "Hosts" },
  { id: "images", title: "Images" },
  { id: "deploy", title: "Deploy" },
  { id: "power", title: "Power & disks" },
  { id: "logs", title: "Logs" },
] as const;

export type ScreenId = (typeof SCREENS)[number]["id"];

/** The screen a `#/<id>` address names; the overview for anything else. */
export function screenFromHash(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, "");
  return SCREENS.find((s) => s.id === id)?.id ?? "overview";
}
