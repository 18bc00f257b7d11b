// What a dialog's form holds now, saved or not, for a Test button to send: each declared setting
// that has a form field (`#node-input-<name>`, or `#node-config-input-<name>` in a config node's
// dialog), read the way the editor reads it on save (a checkbox as true/false, any other field as
// its value). Settings the dialog's code keeps (`form: false`) are added by the dialog itself.
import type { SettingsDeclaration } from '../../../src/settings-declaration';

export function formValues(settings: SettingsDeclaration, prefix = '#node-input-'): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, declared] of Object.entries(settings)) {
    if (declared.form === false) continue;
    const field = $(prefix + name);
    if (!field.length) continue;
    values[name] = field.is(':checkbox') ? field.prop('checked') : field.val();
  }
  return values;
}
