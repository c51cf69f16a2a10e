package history

import "time"

// Tail returns the last n cells (n <= 0: none), oldest first, across
// sessions. Without output, Output is left empty in the entries.
func (s *Store) Tail(n int, output bool) []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n <= 0 {
		return []Entry{}
	}
	start := max(len(s.entries)-n, 0)
	return pick(s.entries[start:], output)
}

// Range returns the cells of one session with start <= line < stop, oldest
// first. session 0 is the current one, a negative session counts back from
// it (-1 is the previous session), a positive one is absolute. stop <= 0
// means no upper bound.
func (s *Store) Range(session, start, stop int, output bool) []Entry {
	if session <= 0 {
		session += s.session
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Entry{}
	for _, e := range s.entries {
		if e.Session == session && e.Line >= start && (stop <= 0 || e.Line < stop) {
			out = append(out, strip(e, output))
		}
	}
	return out
}

// Search returns the newest n cells (n <= 0: all) whose input matches the
// glob pattern, oldest first. In the pattern, * matches any text (newlines
// included), ? any one character, and \ quotes the next character; the
// whole input must match, so "*cl.*" finds inputs that mention cl. With
// unique, only the newest of equal inputs is kept.
func (s *Store) Search(pattern string, n int, unique bool, output bool) []Entry {
	p := []rune(pattern)
	s.mu.Lock()
	defer s.mu.Unlock()
	var rev []Entry
	seen := map[string]bool{}
	for i := len(s.entries) - 1; i >= 0; i-- {
		e := s.entries[i]
		if !glob(p, []rune(e.Input)) {
			continue
		}
		if unique {
			if seen[e.Input] {
				continue
			}
			seen[e.Input] = true
		}
		rev = append(rev, strip(e, output))
		if n > 0 && len(rev) == n {
			break
		}
	}
	out := make([]Entry, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}

func pick(es []Entry, output bool) []Entry {
	out := make([]Entry, len(es))
	for i, e := range es {
		out[i] = strip(e, output)
	}
	return out
}

func strip(e Entry, output bool) Entry {
	if !output {
		e.Output = ""
	}
	return e
}

// glob reports whether all of s matches pattern p (see Search).
func glob(p, s []rune) bool {
	// Iterative matcher with backtracking to the last star.
	pi, si := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch c := p[pi]; {
			case c == '*':
				starP, starS = pi, si
				pi++
				continue
			case c == '?':
				pi++
				si++
				continue
			case c == '\\' && pi+1 < len(p):
				if p[pi+1] == s[si] {
					pi += 2
					si++
					continue
				}
			case c == s[si]:
				pi++
				si++
				continue
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		pi, si = starP+1, starS
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

func nowStamp() string { return time.Now().UTC().Format(time.RFC3339) }
