// Device ids are MAC addresses. The firmware sends them lower case with colons in the Device-Id
// header; MQTT topics and client ids spell them with underscores (`d8_3b_da_4e_21_7c`).

/** Lower case, `-`/`_` turned into `:` so every spelling of one MAC compares equal. */
export function normalizeDeviceId(raw: string): string {
  const s = raw.trim().toLowerCase();
  return /^[0-9a-f]{2}([:_-][0-9a-f]{2}){5}$/.test(s) ? s.replace(/[_-]/g, ':') : s;
}

/** `{mac_}` in a topic template is the MAC with `_` for `:` (the xiaozhi gateway's spelling). */
export function macUnderscore(deviceId: string): string {
  return deviceId.replace(/:/g, '_');
}

export function deviceTopicFor(template: string, deviceId: string): string {
  return template.split('{mac_}').join(macUnderscore(deviceId)).split('{mac}').join(deviceId);
}

/** A device→server topic template as an MQTT subscription plus a matcher that recovers the MAC. */
export function topicMatcher(template: string): { subscription: string; match(topic: string): string | null | undefined } {
  if (!template.includes('{mac_}')) {
    return { subscription: template, match: (topic) => (topic === template ? null : undefined) };
  }
  const [before, after] = template.split('{mac_}', 2);
  return {
    subscription: before + '+' + after,
    // null: the topic is ours but names no device; undefined: not ours at all.
    match(topic) {
      if (!topic.startsWith(before) || !topic.endsWith(after)) return undefined;
      const mac = topic.slice(before.length, topic.length - after.length);
      return mac && !mac.includes('/') ? normalizeDeviceId(mac) : undefined;
    },
  };
}

/**
 * The device id in an MQTT client id. The official gateway accepts `GID_<group>@@@<mac_>@@@<uuid>`
 * and the two-part `GID_<group>@@@<mac_>`; a bare MAC is accepted too for hand-made clients.
 */
export function deviceIdFromMqttClientId(clientId: string): string | undefined {
  const parts = clientId.split('@@@');
  const candidate = parts.length === 2 || parts.length === 3 ? parts[1] : clientId;
  const id = normalizeDeviceId(candidate);
  return /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/.test(id) ? id : undefined;
}
