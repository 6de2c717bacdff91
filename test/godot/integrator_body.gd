extends RigidBody3D
# A body that integrates itself: _integrate_forces sets a constant velocity along x.

var calls := 0


func _integrate_forces(state: PhysicsDirectBodyState3D) -> void:
	calls += 1
	state.linear_velocity = Vector3(1, 0, 0)
