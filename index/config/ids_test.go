package config

import (
	"regexp"
	"strings"
	"testing"
)

func TestIDsParse(t *testing.T) {
	for _, c := range []struct {
		name, yaml string
		want       IDs
		wantErr    string
	}{
		{name: "default", yaml: "roots: [.]", want: IDs{Scheme: SchemeSequential, Digits: 6}},
		{name: "random", yaml: "ids:\n  scheme: random\n  digits: 8\n  block_push: true", want: IDs{Scheme: SchemeRandom, Digits: 8, BlockPush: true}},
		{name: "time, any case", yaml: "ids: {scheme: Time}", want: IDs{Scheme: SchemeTime, Digits: 6}},
		{name: "unknown scheme", yaml: "ids:\n  scheme: uuid", wantErr: `ids.scheme: "uuid" is not an id scheme; write sequential, random, time`},
		{name: "too few digits", yaml: "ids:\n  digits: 2", wantErr: "ids.digits: 2 is not between 4 and 16"},
		{name: "unknown key", yaml: "ids:\n  schema: random", wantErr: `unknown key "schema"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Parse("config.yaml", []byte(c.yaml))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("Parse = %v, want an error with %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.IDs != c.want {
				t.Errorf("IDs = %+v, want %+v", cfg.IDs, c.want)
			}
		})
	}
}

func TestIDsSplitAndMatch(t *testing.T) {
	random := IDs{Scheme: SchemeRandom, Digits: 6}
	timed := IDs{Scheme: SchemeTime}
	kano := regexp.MustCompile(`^[A-Z][A-Z0-9]*-TSK-[0-9]{4,}$`)
	learned := regexp.MustCompile(`^(?:task)-[0-9]+(?:\.[0-9]+)*$`)
	for _, c := range []struct {
		ids    IDs
		id     string
		prefix string // "" when the scheme did not mint it
		re     *regexp.Regexp
		match  bool
	}{
		{random, "KB-TSK-7f3a9c", "KB-TSK-", kano, true},
		{random, "KB-TSK-7f3a96", "KB-TSK-", kano, true},
		{random, "KB-TSK-0012", "", kano, true},           // a numbered id still matches as it is
		{random, "KB-TSK-7F3A9C", "", kano, false},        // upper case: not what the scheme writes
		{random, "KB-TSK-abcdef", "", kano, false},        // no digit: a word, not a suffix
		{random, "KB-TSK-7f3a9c1", "", kano, false},       // seven digits
		{random, "KB-USR-7f3a9c", "KB-USR-", kano, false}, // another series
		{random, "task-00ab12", "task-", learned, true},
		{random, "9B-TSK-7f3a9c", "", kano, false},
		{timed, "KB-TSK-1jq3x5h2k7m4c", "KB-TSK-", kano, true},
		{timed, "KB-TSK-7f3a9c", "", kano, false},
		{IDs{Scheme: SchemeSequential}, "KB-TSK-7f3a9c", "", kano, false},
	} {
		p, _, ok := c.ids.Split(c.id)
		if ok != (c.prefix != "") || p != c.prefix {
			t.Errorf("%s Split(%s) = %q, %v; want %q", c.ids.Scheme, c.id, p, ok, c.prefix)
		}
		if got := c.ids.Matches(c.re, c.id); got != c.match {
			t.Errorf("%s Matches(%s, %s) = %v, want %v", c.ids.Scheme, c.re, c.id, got, c.match)
		}
	}
}
