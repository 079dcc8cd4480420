package human

import (
	"testing"
	"time"
)

func TestWords(t *testing.T) {
	now := time.Date(2025, 3, 2, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct{ name, got, want string }{
		{"plural one", Plural(1, "file"), "1 file"},
		{"plural none", Plural(0, "file"), "0 files"},
		{"plural many", Plural(3, "hop"), "3 hops"},
		{"thousands small", Thousands(9999), "9999"},
		{"thousands", Thousands(1234567), "1,234,567"},
		{"thousands even", Thousands(100000), "100,000"},
		{"duration µs", Duration(1234 * time.Nanosecond), "1µs"},
		{"duration ms", Duration(45678 * time.Microsecond), "46ms"},
		{"duration s", Duration(1234 * time.Millisecond), "1.23s"},
		{"span seconds", Span(42 * time.Second), "42s"},
		{"span hours", Span(47 * time.Hour), "47h"},
		{"span days", Span(76 * time.Hour), "3d 4h"},
		{"span whole days", Span(-72 * time.Hour), "3d"},
		{"when ahead", When(now.Add(72*time.Hour), now), "2025-03-05 12:00 (in 3d)"},
		{"when past", When(now.Add(-90*time.Minute), now), "2025-03-02 10:30 (1h ago)"},
		{"commit", Commit("0f5c644b0b1234"), "0f5c644b0b"},
		{"no commit", Commit(""), "(no commits yet)"},
		{"bytes", Bytes(512), "512 B"},
		{"kib", Bytes(227 << 10), "227 KiB"},
		{"mib", Bytes(3<<20 + 400<<10), "3.4 MiB"},
		{"clip", Clip("abcdef", 4), "abc…"},
		{"no clip", Clip("abc", 4), "abc"},
		{"counts", Counts(map[string]int{"task": 2, "adr": 5}), "  (adr 5, task 2)"},
		{"no counts", Counts(nil), ""},
		{"ago of text", Ago("yesterday"), "yesterday"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestNamed(t *testing.T) {
	for _, c := range []struct{ id, title, want string }{
		{"T-1", "Issue tokens", "T-1: Issue tokens"},
		{"003-apache-age", "003-apache-age", "003-apache-age"}, // a file with no title: its name twice
		{"getting-started", "Getting Started", "getting-started"},
		{"T-1", "", "T-1"},
	} {
		if got := Named(c.id, c.title, ": "); got != c.want {
			t.Errorf("Named(%q, %q) = %q, want %q", c.id, c.title, got, c.want)
		}
	}
}
