// Copyright ©2017 The Gonum Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package amos implements functions originally in the Netlib code by Donald Amos.
package amos // import "gonum.org/v1/gonum/mathext/internal/amos"
