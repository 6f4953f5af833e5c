"""Test-video generators: numpy needles, the ffmpeg distortion track, the real clean corpus."""
