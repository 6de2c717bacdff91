extends Node3D
# Base of every comparison case in res://compare/ (cmp_*.gd): one scene run the same way
# under Godot Physics, Jolt Physics and Maul3D (test/godot/compare.sh runs Godot once per
# engine). `run()` builds the scene, waits its ticks and fills `values` (numbers, bools or
# strings: what the scene measured); `judge()` runs in the Maul3D pass only, with every
# engine's values, and returns what is wrong (empty: the case passes).

var values := {}


## Builds the scene, runs it and fills `values`. Awaited.
func run() -> void:
	pass


## What is wrong with Maul3D's `values` given the other engines' (`by_engine` maps
## "GodotPhysics3D", "Jolt Physics" and "Maul3D" to each one's values).
func judge(_by_engine: Dictionary) -> PackedStringArray:
	return PackedStringArray()


## Waits `n` physics ticks.
func ticks(n: int) -> void:
	for i in n:
		await get_tree().physics_frame


## A static box body of half-extents `half` at `at` (rotated by `basis`).
func static_box(half: Vector3, at: Vector3, basis := Basis.IDENTITY) -> StaticBody3D:
	return _box_body(StaticBody3D.new(), half, at, basis)


## A rigid box body of half-extents `half` at `at`.
func rigid_box(half: Vector3, at: Vector3, basis := Basis.IDENTITY) -> RigidBody3D:
	return _box_body(RigidBody3D.new(), half, at, basis)


func _box_body(b: PhysicsBody3D, half: Vector3, at: Vector3, basis: Basis) -> PhysicsBody3D:
	var s := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = half * 2.0
	s.shape = box
	b.add_child(s)
	b.transform = Transform3D(basis, at)
	add_child(b)
	return b


## "|a - b| <= tol", or a message naming `what` and both values.
func near(what: String, a: float, b: float, tol: float) -> String:
	if absf(a - b) <= tol:
		return ""
	return "%s: %.4f vs %.4f (tolerance %.4f)" % [what, a, b, tol]
