// Audio building blocks of the voice path: Opus, WAV, resampling, VAD, frame pacing.
export * from './opus';
export * from './wav';
export * from './resample';
export * from './vad';
export * from './pacer';
