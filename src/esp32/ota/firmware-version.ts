// Firmware versions as the xiaozhi firmware compares them (main/ota.cc IsNewVersionAvailable). No
// dependencies: the listener dialog checks a version with the same rule.

/**
 * A version the firmware can compare: dot-separated numbers only. The firmware reads each segment
 * with std::stoi, and a segment without leading digits ("v2") throws and aborts the device.
 */
export function isFirmwareVersion(v: string): boolean {
  return /^\d+(\.\d+)*$/.test(v);
}

/** The firmware's IsNewVersionAvailable: segment by segment as numbers; with equal segments the longer version is newer. */
export function isNewerVersion(offered: string, current: string): boolean {
  if (!isFirmwareVersion(offered)) return false;
  const a = offered.split('.').map((x) => parseInt(x, 10));
  const b = current.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] > b[i];
  return a.length > b.length;
}
