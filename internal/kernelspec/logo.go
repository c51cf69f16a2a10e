package kernelspec

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
)

// Logo draws gocl's logo, size by size pixels: a Go-blue disc with three
// white bars, the lanes of a transfer timeline.
func Logo(size int) ([]byte, error) {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	goBlue := color.NRGBA{0x00, 0xAD, 0xD8, 0xFF}
	white := color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}
	s := float64(size)
	c, r := s/2, s/2-0.5
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			dx, dy := float64(x)+0.5-c, float64(y)+0.5-c
			d := math.Hypot(dx, dy)
			if d > r {
				continue
			}
			px := goBlue
			// Three lanes, offset like overlapping copies and kernels.
			for lane, span := range [][2]float64{{0.22, 0.62}, {0.38, 0.78}, {0.30, 0.70}} {
				top := 0.27 + 0.18*float64(lane)
				fy, fx := (float64(y)+0.5)/s, (float64(x)+0.5)/s
				if fy >= top && fy < top+0.11 && fx >= span[0] && fx < span[1] {
					px = white
				}
			}
			if a := r - d; a < 1 { // antialiased rim
				px.A = uint8(255 * a)
			}
			img.SetNRGBA(x, y, px)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
