package stdexamples

// Packages are the standard library packages whose examples the corpus takes.
var Packages = []string{
	"strings", "strconv", "sort", "slices", "maps", "bytes", "fmt", "errors", "cmp",
	"math", "math/bits", "math/big", "unicode", "unicode/utf8",
	"container/heap", "container/list", "container/ring",
	"encoding/json", "encoding/hex", "encoding/base64", "encoding/base32", "encoding/binary", "encoding/csv",
	"text/tabwriter", "text/template", "regexp", "time", "path", "bufio",
	"hash/crc32", "crypto/sha256", "crypto/md5", "html", "net/url", "io", "sync", "context",
}
