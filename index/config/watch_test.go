package config

import (
	"strings"
	"testing"
	"time"
)

func TestWatchSection(t *testing.T) {
	t.Parallel()
	c, err := Parse(File, []byte("watch:\n  debounce: 50ms\n  rescan: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Watch; w.Debounce != 50*time.Millisecond || w.Rescan != 0 || w.MaxDelay != time.Second || w.Auto || w.Idle != DefaultWatchIdle {
		t.Fatalf("watch = %+v", w)
	}
	c, err = Parse(File, []byte("watch:\n  auto: true\n  idle: 5s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Watch; !w.Auto || w.Idle != 5*time.Second {
		t.Fatalf("watch = %+v", w)
	}
	for y, want := range map[string]string{
		"watch: {debounce: soon}":                  "not a duration",
		"watch: {debounce: 1m}":                    "debounce must be between",
		"watch: {rescan: 1s}":                      "rescan must be between",
		"watch: {max_delay: 0}":                    "max_delay must be between",
		"watch: {debounce: 2s, max_delay: 1s}":     "must not be shorter",
		"watch: {nope: 1}":                         "unknown key",
		"watch: {max_delay: off}":                  "not a duration",
		"watch: {debounce: -5ms}":                  "not a duration",
		"watch: {rescan: 25h}":                     "rescan must be between",
		"watch: {auto: yes please}":                "auto",
		"watch: {idle: 0}":                         "idle must be between",
		"watch: {idle: off}":                       "not a duration",
		"watch: {idle: 500ms}":                     "idle must be between",
		"watch: {idle: 48h}":                       "idle must be between",
		"watch: {debounce: 0s, max_delay: 100ms}x": "config.yaml",
	} {
		_, err := Parse(File, []byte(y))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) err = %v, want %q", y, err, want)
		}
	}
}
