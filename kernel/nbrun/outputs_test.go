package nbrun

import (
	"runtime"
	"strings"
	"testing"
)

// TestCoalesceLinear checks that merging a cell's stream chunks copies the
// text a bounded number of times, not once per chunk: gocl run took 50 s
// for 20 MB of output when each chunk re-concatenated everything before it.
func TestCoalesceLinear(t *testing.T) {
	const chunk, n = 4096, 1280 // 5 MiB in 4 KiB writes, as a print loop makes
	piece := strings.Repeat("x", chunk-1) + "\n"
	outs := make([]any, n)
	for i := range outs {
		outs[i] = map[string]any{"output_type": "stream", "name": "stdout", "text": piece}
	}
	cell := map[string]any{"cell_type": "code", "outputs": outs}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	coalesceStreams(cell)
	runtime.ReadMemStats(&after)
	total := uint64(chunk * n)
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*total {
		t.Errorf("coalescing %d bytes in %d chunks allocated %d bytes (%.0fx the text); want it linear, under 4x",
			total, n, got, float64(got)/float64(total))
	}
	l := cell["outputs"].([]any)
	if len(l) != 1 || len(l[0].(map[string]any)["text"].(string)) != int(total) {
		t.Fatalf("coalesced into %d outputs", len(l))
	}
}

// TestCoalesceRuns checks that only neighbouring streams of one name merge.
func TestCoalesceRuns(t *testing.T) {
	s := func(name string, text any) any {
		return map[string]any{"output_type": "stream", "name": name, "text": text}
	}
	cell := map[string]any{"outputs": []any{s("stdout", "a"), s("stdout", []any{"b\n", "c"}), s("stderr", "e"),
		map[string]any{"output_type": "display_data"}, s("stdout", "d"), s("stdout", "e")}}
	coalesceStreams(cell)
	l := cell["outputs"].([]any)
	var got []string
	for _, x := range l {
		o := x.(map[string]any)
		txt, _ := multiline(o["text"], "text")
		got = append(got, o["output_type"].(string)+":"+txt)
	}
	want := "stream:ab\nc|stream:e|display_data:|stream:de"
	if strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", strings.Join(got, "|"), want)
	}
}
