// A small home in the shape docs/mcp-endpoint.md describes, as a flow would keep it in global context.
export function home() {
  return {
    $title: 'Home',
    $types: { 'Sensors.ITemperatureSensor': 'Provides temperature readings', 'Devices.ISwitch': 'Can be turned on/off' },
    livingRoom: {
      $type: 'LivingRoom',
      $interfaces: ['Sensors.ITemperatureSensor', 'Sensors.IHumiditySensor'],
      $title: 'Living Room',
      $icon: 'Weekend',
      temperature: { value: 21.5, unit: 'DegreeCelsius' },
      humidity: { value: 45, unit: 'Percent' },
      lamp: { $type: 'Lamp', $interfaces: ['Devices.ISwitch'], on: false },
    },
    bedroom: {
      $type: 'Bedroom',
      $interfaces: ['Sensors.ITemperatureSensor'],
      temperature: { value: 19.2, unit: 'DegreeCelsius' },
      thermostat: {
        $type: 'Thermostat',
        $interfaces: ['Sensors.ITemperatureSensor', 'Devices.IControllable'],
        currentTemperature: 19.2,
        targetTemperature: 20,
      },
    },
  };
}
