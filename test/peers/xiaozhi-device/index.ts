// xiaozhi ESP32 device simulator: firmware MCP behaviour + WebSocket and MQTT transports.
export { FirmwareMcpServer, isUserOnly, type FirmwareOptions } from './firmware-mcp';
export { XiaozhiWsDevice, type WsDeviceOptions } from './ws-device';
export { XiaozhiMqttDevice, type MqttDeviceOptions } from './mqtt-device';
export { ottoRobot, lichuangDev, wsTranscript, mqttTranscript, type DeviceFixture, type FirmwareTool } from './fixtures';
export { DeviceVoice, type SayOptions } from './device-voice';
export { DeviceSpeaker, type SpeakerReport } from './speaker';
export { DeviceMicrophone, speechSamples } from './microphone';
export { DeviceUdpChannel, frameForServer, payloadFromServer, udpHelloProblem } from './audio-wire';
export { OtaDevice, NvsKeyTooLong, rawRequest, type Nvs, type JoinResult, type HttpAnswer } from './ota-device';
