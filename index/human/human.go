package human

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Plural counts a regular noun: "1 file", "3 files".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// Thousands writes n with thousands separators from 10,000 on (4-digit
// numbers stay as they are): 9999, 10,000, 1,234,567.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 10000 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Duration rounds an elapsed time to what a person reads: 350µs, 45ms,
// 1.23s.
func Duration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}

// Span writes a duration as a person reads an age or a time left: 45m,
// 5h, 3d 4h (its sign is dropped).
func Span(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	days := int(d / (24 * time.Hour))
	if h := int(d%(24*time.Hour)) / int(time.Hour); h > 0 {
		return fmt.Sprintf("%dd %dh", days, h)
	}
	return fmt.Sprintf("%dd", days)
}

// When writes a time in UTC with how far it is from now: "2025-03-05
// 12:00 (in 3d)", "2025-03-01 12:00 (1d ago)".
func When(t, now time.Time) string {
	s := t.UTC().Format("2006-01-02 15:04")
	if t.After(now) {
		return s + " (in " + Span(t.Sub(now)) + ")"
	}
	return s + " (" + Span(now.Sub(t)) + " ago)"
}

// Ago writes an RFC 3339 time in local time with how long ago it was; a
// text that is not such a time is returned as it is.
func Ago(rfc string) string {
	t, err := time.Parse(time.RFC3339, rfc)
	if err != nil {
		return rfc
	}
	d := time.Since(t).Round(time.Second)
	return fmt.Sprintf("%s (%s ago)", t.Local().Format("2006-01-02 15:04:05"), d)
}

// Commit shortens a commit hash to 10 characters, as git's short hashes
// go; no commit at all is "(no commits yet)".
func Commit(h string) string {
	if h == "" {
		return "(no commits yet)"
	}
	if len(h) > 10 {
		return h[:10]
	}
	return h
}

// Bytes writes a size: 512 B, 12 KiB, 3.4 MiB.
func Bytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// Clip cuts s to at most n characters, marking a cut with "…".
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Counts writes a map of counts in key order: "  (adr 5, bug 2)", or ""
// for none.
func Counts(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	return "  (" + CountList(m) + ")"
}

// CountList writes a map of counts in key order: "adr 5, bug 2".
func CountList(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + Thousands(m[k])
	}
	return strings.Join(parts, ", ")
}

// Named is how a document is named in one line: its id, then its title
// after sep, or the id alone when the title is empty or only repeats it (a
// file with no title is titled by its name, which is its id too).
func Named(id, title, sep string) string {
	if title == "" || strings.EqualFold(strings.ReplaceAll(title, " ", "-"), id) {
		return Quote(id)
	}
	return Quote(id) + sep + Quote(title)
}
