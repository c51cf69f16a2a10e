package stdlib

import (
	"crypto/hkdf"
	"crypto/pbkdf2"
	"hash"
	"reflect"
)

// yaegi cannot call a compiled generic function, so the extractor leaves
// them out. The functions of crypto/hkdf and crypto/pbkdf2 are generic only
// in the hash they take, and cells pass a func() hash.Hash (sha256.New...):
// their instances at hash.Hash are exported under the generic names. A hash
// constructor of another type (sha3.New256) must be wrapped:
// func() hash.Hash { return sha3.New256() }.
//
// This file sorts after the generated crypto-*.go tables, so its init runs
// after theirs.
func init() {
	add := func(key string, syms map[string]reflect.Value) {
		m := Symbols[key]
		if m == nil {
			m = map[string]reflect.Value{}
			Symbols[key] = m
		}
		for name, v := range syms {
			m[name] = v
		}
	}
	add("crypto/hkdf/hkdf", map[string]reflect.Value{
		"Extract": reflect.ValueOf(hkdf.Extract[hash.Hash]),
		"Expand":  reflect.ValueOf(hkdf.Expand[hash.Hash]),
		"Key":     reflect.ValueOf(hkdf.Key[hash.Hash]),
	})
	add("crypto/pbkdf2/pbkdf2", map[string]reflect.Value{
		"Key": reflect.ValueOf(pbkdf2.Key[hash.Hash]),
	})
}
