"""The numeric layer: JAX, float64, autodiff.  Nothing here imports JAX at
package import time; the cross-check runs JAX in a worker process."""
