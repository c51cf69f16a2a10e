package stdexamples

// Packages are the standard library packages whose examples the corpus
// takes: those of gocl's symbol tables (kernel/symbols/stdlib) whose
// examples run in a process of their own without a network, a terminal or
// files outside their own temporary ones.
var Packages = []string{
	"archive/tar", "archive/zip", "bufio", "bytes", "cmp", "compress/flate", "compress/gzip", "compress/zlib",
	"container/heap", "container/list", "container/ring", "context",
	"crypto/hmac", "crypto/md5", "crypto/sha1", "crypto/sha256", "crypto/sha512", "crypto/subtle",
	"encoding/ascii85", "encoding/base32", "encoding/base64", "encoding/binary", "encoding/csv", "encoding/gob",
	"encoding/hex", "encoding/json", "encoding/pem", "encoding/xml", "errors", "flag", "fmt",
	"go/ast", "go/constant", "go/format", "go/parser", "go/printer", "go/scanner", "go/token",
	"hash/adler32", "hash/crc32", "hash/crc64", "hash/fnv", "html", "html/template",
	"image", "image/color", "index/suffixarray", "io", "io/fs", "iter", "log", "log/slog",
	"maps", "math", "math/big", "math/bits", "math/cmplx", "math/rand", "math/rand/v2",
	"mime", "mime/quotedprintable", "net/mail", "net/netip", "net/url", "path", "path/filepath",
	"reflect", "regexp", "regexp/syntax", "slices", "sort", "strconv", "strings", "sync", "sync/atomic",
	"text/scanner", "text/tabwriter", "text/template", "time", "unicode", "unicode/utf16", "unicode/utf8",
}
