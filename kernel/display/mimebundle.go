package display

import "fmt"

// MIMEBundler is a value that makes its whole MIME bundle itself, such as a
// widget (application/vnd.jupyter.widget-view+json with text/plain). BundleOf
// uses its bundle as it is, adding text/plain when it lacks one.
type MIMEBundler interface{ MIMEBundle() Bundle }

func mimeBundleOf(v MIMEBundler) (b Bundle) {
	defer func() {
		if p := recover(); p != nil {
			b = Bundle{MIMEText: fmt.Sprintf("%v\n(%T.MIMEBundle panicked: %v)", v, v, p)}
		}
	}()
	out := Bundle{}
	for k, x := range v.MIMEBundle() {
		out[k] = x
	}
	if _, ok := out[MIMEText]; !ok {
		out[MIMEText] = plainText(v)
	}
	return out
}
