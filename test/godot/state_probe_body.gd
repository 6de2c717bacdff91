extends RigidBody3D
# Used by test_tick_cost.gd: in `_integrate_forces` it writes state through its body
# state and reads it back, and (when `other` is set) sets another body's velocity through
# the server and reads that body's direct state. Counts the reads that saw the write.

var other: RID
var calls := 0
var own_seen := 0
var other_seen := 0
var other_calls := 0


func _integrate_forces(state: PhysicsDirectBodyState3D) -> void:
	calls += 1
	var before := state.linear_velocity
	var v := before + Vector3(0.5, 0, 0)
	state.linear_velocity = v
	if state.linear_velocity.is_equal_approx(v):
		own_seen += 1
	if other.is_valid():
		other_calls += 1
		var w := Vector3(0, 0, 0.25 * calls)
		PhysicsServer3D.body_set_state(other, PhysicsServer3D.BODY_STATE_LINEAR_VELOCITY, w)
		var ds := PhysicsServer3D.body_get_direct_state(other)
		if ds.linear_velocity.is_equal_approx(w):
			other_seen += 1
