package config

import (
	"fmt"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v4"
)

// Watch tunes canon watch: how long it lets a burst of edits settle before
// a sync, and how often it rescans the whole working tree as a safety net
// for events the operating system dropped.
type Watch struct {
	// Debounce is how long the working tree must stay quiet before a sync
	// (the --debounce flag overrides it).
	Debounce time.Duration `json:"debounce"`
	// MaxDelay bounds the wait under a steady stream of events: a sync
	// starts at most this long after the first unsynced event.
	MaxDelay time.Duration `json:"max_delay"`
	// Rescan is the period of the safety rescan (a stat walk, like canon
	// sync); 0 turns it off.
	Rescan time.Duration `json:"rescan"`
	// Auto: a reading command that finds no listener starts canon watch
	// in the background (ADR-0089), so that the next commands ask it
	// rather than walk the working tree. Off by default.
	Auto bool `json:"auto"`
	// Idle is how long a watcher a command started waits without being
	// asked (a command's cookie) before it stops by itself.
	Idle time.Duration `json:"idle"`
}

// DefaultWatch is the default watch configuration.
func DefaultWatch() Watch {
	return Watch{Debounce: 150 * time.Millisecond, MaxDelay: time.Second, Rescan: 5 * time.Minute, Idle: DefaultWatchIdle}
}

// DefaultWatchIdle is watch.idle's default; MinWatchIdle and MaxWatchIdle
// bound it.
const (
	DefaultWatchIdle = 30 * time.Minute
	MinWatchIdle     = time.Second
	MaxWatchIdle     = 24 * time.Hour
)

type watchFile struct {
	Debounce *string `yaml:"debounce"`
	MaxDelay *string `yaml:"max_delay"`
	Rescan   *string `yaml:"rescan"`
	Auto     *string `yaml:"auto"`
	Idle     *string `yaml:"idle"`
}

func (w *Watch) merge(n *yaml.Node) error {
	var f watchFile
	if err := n.Load(&f, yaml.WithKnownFields()); err != nil {
		return err
	}
	for _, d := range []struct {
		name     string
		src      *string
		dst      *time.Duration
		min, max time.Duration
		off      bool // 0 or "off" allowed
	}{
		{"debounce", f.Debounce, &w.Debounce, 0, 10 * time.Second, false},
		{"max_delay", f.MaxDelay, &w.MaxDelay, 10 * time.Millisecond, time.Minute, false},
		{"rescan", f.Rescan, &w.Rescan, 10 * time.Second, 24 * time.Hour, true},
		{"idle", f.Idle, &w.Idle, MinWatchIdle, MaxWatchIdle, false},
	} {
		if d.src == nil {
			continue
		}
		v, err := parseWatchDuration(*d.src, d.off)
		if err != nil {
			return fmt.Errorf("watch.%s: %w", d.name, err)
		}
		if v != 0 && (v < d.min || v > d.max) || v == 0 && !d.off && d.min > 0 {
			return fmt.Errorf("watch.%s must be between %s and %s", d.name, d.min, d.max)
		}
		*d.dst = v
	}
	if f.Auto != nil {
		switch strings.TrimSpace(*f.Auto) {
		case "true":
			w.Auto = true
		case "false":
			w.Auto = false
		default:
			return fmt.Errorf("watch.auto is %q; write true or false", *f.Auto)
		}
	}
	if w.MaxDelay < w.Debounce {
		return fmt.Errorf("watch.max_delay (%s) must not be shorter than watch.debounce (%s)", w.MaxDelay, w.Debounce)
	}
	return nil
}

func parseWatchDuration(s string, offAllowed bool) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if offAllowed && (t == "off" || t == "0") {
		return 0, nil
	}
	d, err := time.ParseDuration(t)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration; write it like 150ms, 2s or 5m", s)
	}
	return d, nil
}

const templateWatch = `
# canon watch: the index follows the working tree as files are saved.
watch:
  debounce: 150ms          # quiet time before a sync (the --debounce flag overrides it)
  max_delay: 1s            # under a steady stream of edits, sync at least this often
  rescan: 5m               # safety rescan of the whole working tree ("off" turns it off)
  # auto: true             # a command that finds no watcher starts one in the background,
                           # so later commands ask it instead of checking every file (ADR-0089)
  idle: 30m                # a watcher a command started stops after this long unasked (1s to 24h)
`
