package config

import (
	"strings"
	"testing"
	"time"
)

func TestWorksetSection(t *testing.T) {
	t.Parallel()
	c, err := Parse(File, []byte("workset:\n  ttl: 3d\n  max_docs: 50\n  enrich_distance: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	w := c.Workset
	if w.TTL != 72*time.Hour || w.MaxDocs != 50 || w.EnrichDistance != 1 || w.Depth != 1 || w.MinHits != 3 {
		t.Fatalf("workset = %+v", w)
	}
	for y, want := range map[string]string{
		"workset: {ttl: soon}":    "not a lifetime",
		"workset: {ttl: -1h}":     "not a lifetime",
		"workset: {max_docs: 0}":  "max_docs must be between 1",
		"workset: {depth: 11}":    "depth must be between 0 and 10",
		"workset: {nope: 1}":      "unknown key",
		"workset: {min_hits: -1}": "min_hits",
	} {
		_, err := Parse(File, []byte(y))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) err = %v, want %q", y, err, want)
		}
	}
}

func TestParseTTL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{"72h": 72 * time.Hour, "90m": 90 * time.Minute, "3d": 72 * time.Hour, "2w": 14 * 24 * time.Hour, "1.5d": 36 * time.Hour} {
		got, err := ParseTTL(in)
		if err != nil || got != want {
			t.Errorf("ParseTTL(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0h", "d", "xw", "-3d"} {
		if _, err := ParseTTL(in); err == nil {
			t.Errorf("ParseTTL(%q) accepted", in)
		}
	}
}
